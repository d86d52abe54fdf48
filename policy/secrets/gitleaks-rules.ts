import { GENERIC_STOPWORDS } from "./gitleaks-stopwords.ts";
import type { SecretRule } from "./rule.ts";

/**
 * gitleaks' default rule set, re-expressed as our data. Source: gitleaks (MIT licence, © Zachary
 * Rice and contributors), `config/gitleaks.toml` at commit b58d3f102cf3 (July 2026), 221 rules.
 * What changed in carrying it over, and why:
 * - Go RE2 syntax written as JavaScript: a leading `(?i)` became the `i` flag, a mid-pattern `(?i)`
 *   a `(?i:…)` group to the end of its group, `(?s:.)` → `[\s\S]`, `[[:alnum:]]` → `[A-Za-z0-9]`,
 *   `\z` → `$`, `(?P<` → `(?<`.
 * - The leading `[\w.-]{0,50}?` of the "keyword = value" rules is dropped: it only widened the match
 *   to include the key name (we replace the secret group only), and it cost 50 steps per position.
 * - Allowlists of documented example keys (AWS `…EXAMPLE`, Google's public API keys, NuGet samples)
 *   are dropped: a redactor hides those too. Allowlists that describe structure are kept.
 * - Path-only rules (pkcs12 files) do not apply to text and are left out.
 * - generic-api-key's match allowlist has `api[a-z0-9-]*?:jar:` where gitleaks has
 *   `[a-z0-9-]*?api[a-z0-9-]*?:jar:`: an allowlist only asks whether the regex matches somewhere, and
 *   a lazy prefix that may match nothing changes no answer to that; it only cost a quadratic scan of
 *   every candidate (gitleaks-rules.test.ts compares the two).
 * - curl-auth-header and curl-auth-user read "anything up to five lines on" with `.*` and unbounded
 *   values, quadratic on text with many `curl` words; here that is `[\s\S]{0,1024}?` and values of
 *   at most 512 characters (policy/secrets/linear.test.ts), and the detector finds their matches
 *   without reading the 1,024 characters again for every `curl` (lead-window.ts). curl-auth-header's
 *   mid-branch `(?i)` is the `i` flag on the whole pattern.
 * Update: regenerate from a newer gitleaks.toml the same way and re-run policy/secrets tests.
 */
export const GITLEAKS_RULES: readonly SecretRule[] = [
  {
    id: "1password-secret-key",
    keywords: ["a3-"],
    entropy: 3.8,
    pattern:
      /\bA3-[A-Z0-9]{6}-(?:(?:[A-Z0-9]{11})|(?:[A-Z0-9]{6}-[A-Z0-9]{5}))-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b/,
  },
  {
    id: "1password-service-account-token",
    keywords: ["ops_"],
    entropy: 4,
    pattern: /ops_eyJ[a-zA-Z0-9+/]{250,}={0,3}/,
  },
  {
    id: "adafruit-api-key",
    keywords: ["adafruit"],
    pattern:
      /(?:adafruit)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9_-]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "adobe-client-id",
    keywords: ["adobe"],
    entropy: 2,
    pattern:
      /(?:adobe)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "adobe-client-secret",
    keywords: ["p8e-"],
    entropy: 2,
    pattern: /\b(p8e-(?i:[a-z0-9]{32}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "age-secret-key",
    keywords: ["age-secret-key-1"],
    pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/,
  },
  {
    id: "airtable-api-key",
    keywords: ["airtable"],
    pattern:
      /(?:airtable)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{17})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "airtable-personnal-access-token",
    keywords: ["airtable"],
    pattern: /\b(pat[A-Za-z0-9]{14}\.[a-f0-9]{64})\b/,
  },
  {
    id: "algolia-api-key",
    keywords: ["algolia"],
    pattern:
      /(?:algolia)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "alibaba-access-key-id",
    keywords: ["ltai"],
    entropy: 2,
    pattern: /\b(LTAI(?i:[a-z0-9]{20}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "alibaba-secret-key",
    keywords: ["alibaba"],
    entropy: 2,
    pattern:
      /(?:alibaba)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{30})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "anthropic-admin-api-key",
    keywords: ["sk-ant-admin01"],
    pattern: /\b(sk-ant-admin01-[a-zA-Z0-9_-]{93}AA)(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "anthropic-api-key",
    keywords: ["sk-ant-api03"],
    pattern: /\b(sk-ant-api03-[a-zA-Z0-9_-]{93}AA)(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  { id: "artifactory-api-key", keywords: ["akcp"], entropy: 4.5, pattern: /\bAKCp[A-Za-z0-9]{69}\b/ },
  {
    id: "artifactory-reference-token",
    keywords: ["cmvmd"],
    entropy: 4.5,
    pattern: /\bcmVmd[A-Za-z0-9]{59}\b/,
  },
  {
    id: "asana-client-id",
    keywords: ["asana"],
    pattern:
      /(?:asana)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9]{16})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "asana-client-secret",
    keywords: ["asana"],
    pattern:
      /(?:asana)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "atlassian-api-token",
    keywords: ["atlassian", "confluence", "jira", "atatt3"],
    entropy: 3.5,
    pattern:
      /(?:(?-i:ATLASSIAN|[Aa]tlassian)|(?-i:CONFLUENCE|[Cc]onfluence)|(?-i:JIRA|[Jj]ira))(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{20}[a-f0-9]{4})(?:[\x60'"\s;]|\\[nr]|$)|\b(ATATT3[A-Za-z0-9_\-=]{186})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "authress-service-client-access-key",
    keywords: ["sc_", "ext_", "scauth_", "authress_"],
    entropy: 2,
    pattern:
      /\b((?:sc|ext|scauth|authress)_(?i:[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.(?-i:acc)[_-][a-z0-9-]{10,32}\.[a-z0-9+/_=-]{30,120}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "aws-access-token",
    keywords: ["a3t", "akia", "asia", "abia", "acca"],
    entropy: 3,
    pattern: /\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b/,
  },
  {
    id: "aws-amazon-bedrock-api-key-long-lived",
    keywords: ["absk"],
    entropy: 3,
    pattern: /\b(ABSK[A-Za-z0-9+/]{109,269}={0,2})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "aws-amazon-bedrock-api-key-short-lived",
    keywords: ["bedrock-api-key-"],
    entropy: 3,
    pattern: /bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t/,
  },
  {
    id: "azure-ad-client-secret",
    keywords: ["q~"],
    entropy: 3,
    pattern: /(?:^|[\\'"\x60\s>=:(,)])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\'"\x60\s<),])/,
  },
  {
    id: "beamer-api-token",
    keywords: ["beamer"],
    pattern:
      /(?:beamer)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(b_[a-z0-9=_-]{44})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "bitbucket-client-id",
    keywords: ["bitbucket"],
    pattern:
      /(?:bitbucket)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "bitbucket-client-secret",
    keywords: ["bitbucket"],
    pattern:
      /(?:bitbucket)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9=_-]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "bittrex-access-key",
    keywords: ["bittrex"],
    pattern:
      /(?:bittrex)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "bittrex-secret-key",
    keywords: ["bittrex"],
    pattern:
      /(?:bittrex)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "cisco-meraki-api-key",
    keywords: ["meraki"],
    entropy: 3,
    pattern:
      /(?i:(?:(?-i:[Mm]eraki|MERAKI))(?:[ \t\w.-]{0,20})[\s'"]{0,3})(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9a-f]{40})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "clickhouse-cloud-api-secret-key",
    keywords: ["4b1d"],
    entropy: 3,
    pattern: /\b(4b1d[A-Za-z0-9]{38})\b/,
  },
  { id: "clojars-api-token", keywords: ["clojars_"], entropy: 2, pattern: /CLOJARS_[a-z0-9]{60}/i },
  {
    id: "cloudflare-api-key",
    keywords: ["cloudflare"],
    entropy: 2,
    pattern:
      /(?:cloudflare)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9_-]{40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "cloudflare-global-api-key",
    keywords: ["cloudflare"],
    entropy: 2,
    pattern:
      /(?:cloudflare)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{37})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "cloudflare-origin-ca-key",
    keywords: ["cloudflare", "v1.0-"],
    entropy: 2,
    pattern: /\b(v1\.0-[a-f0-9]{24}-[a-f0-9]{146})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "codecov-access-token",
    keywords: ["codecov"],
    pattern:
      /(?:codecov)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "cohere-api-token",
    keywords: ["cohere", "co_api_key"],
    entropy: 4,
    pattern:
      /(?i:(?:cohere|CO_API_KEY)(?:[ \t\w.-]{0,20})[\s'"]{0,3})(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-zA-Z0-9]{40})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "coinbase-access-token",
    keywords: ["coinbase"],
    pattern:
      /(?:coinbase)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9_-]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "confluent-access-token",
    keywords: ["confluent"],
    pattern:
      /(?:confluent)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{16})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "confluent-secret-key",
    keywords: ["confluent"],
    pattern:
      /(?:confluent)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "contentful-delivery-api-token",
    keywords: ["contentful"],
    pattern:
      /(?:contentful)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9=_-]{43})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "curl-auth-header",
    keywords: ["curl"],
    entropy: 2.75,
    pattern:
      /\bcurl\b[\s\S]{0,1024}?[ \t\n\r](?:-H|--header)(?:=|[ \t]{0,5})(?:"(?:Authorization:[ \t]{0,5}(?:Basic[ \t]([a-z0-9+/]{8,512}={0,3})|(?:Bearer|(?:Api-)?Token)[ \t]([\w=~@.+/-]{8,512})|([\w=~@.+/-]{8,512}))|(?:(?:X-(?:[a-z]+-)?)?(?:Api-?)?(?:Key|Token)):[ \t]{0,5}([\w=~@.+/-]{8,512}))"|'(?:(?:Authorization:[ \t]{0,5}(?:Basic[ \t]([a-z0-9+/]{8,512}={0,3})|(?:Bearer|(?:Api-)?Token)[ \t]([\w=~@.+/-]{8,512})|([\w=~@.+/-]{8,512}))|(?:(?:X-(?:[a-z]+-)?)?(?:Api-?)?(?:Key|Token)):[ \t]{0,5}([\w=~@.+/-]{8,512})))')(?:\B|\s|$)/i,
  },
  {
    id: "curl-auth-user",
    keywords: ["curl"],
    entropy: 2,
    pattern:
      /\bcurl\b[\s\S]{0,1024}?[ \t\n\r](?:-u|--user)(?:=|[ \t]{0,5})("(:[^"]{3,256}|[^:"]{3,256}:|[^:"]{3,256}:[^"]{3,256})"|'([^:']{3,256}:[^']{3,256})'|((?:"[^"]{3,256}"|'[^']{3,256}'|[\w$@.-]{1,256}):(?:"[^"]{3,256}"|'[^']{3,256}'|[\w${}@.-]{1,256})))(?:\s|$)/,
    allow: [
      {
        regexes: [
          /[^:]+:(?:change(?:it|me)|pass(?:word)?|pwd|test|token|\*+|x+)/,
          /['"]?<[^>]+>['"]?:['"]?<[^>]+>|<[^:]+:[^>]+>['"]?/,
          /[^:]+:\[[^\]]+]/,
          /['"]?[^:]+['"]?:['"]?\$(?:\d|\w+|\{(?:\d|\w+)})['"]?/,
          /\$\([^)]+\):\$\([^)]+\)/,
          /['"]?\$?{{[^}]+}}['"]?:['"]?\$?{{[^}]+}}['"]?/,
        ],
      },
    ],
  },
  {
    id: "databricks-api-token",
    keywords: ["dapi"],
    entropy: 3,
    pattern: /\b(dapi[a-f0-9]{32}(?:-\d)?)(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "datadog-access-token",
    keywords: ["datadog"],
    pattern:
      /(?:datadog)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "defined-networking-api-token",
    keywords: ["dnkey"],
    pattern:
      /(?:dnkey)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "digitalocean-access-token",
    keywords: ["doo_v1_"],
    entropy: 3,
    pattern: /\b(doo_v1_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "digitalocean-pat",
    keywords: ["dop_v1_"],
    entropy: 3,
    pattern: /\b(dop_v1_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "digitalocean-refresh-token",
    keywords: ["dor_v1_"],
    pattern: /\b(dor_v1_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "discord-api-token",
    keywords: ["discord"],
    pattern:
      /(?:discord)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "discord-client-id",
    keywords: ["discord"],
    entropy: 2,
    pattern:
      /(?:discord)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9]{18})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "discord-client-secret",
    keywords: ["discord"],
    entropy: 2,
    pattern:
      /(?:discord)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9=_-]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  { id: "doppler-api-token", keywords: ["dp.pt."], entropy: 2, pattern: /dp\.pt\.(?i:[a-z0-9]{43})/ },
  {
    id: "droneci-access-token",
    keywords: ["droneci"],
    pattern:
      /(?:droneci)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "dropbox-api-token",
    keywords: ["dropbox"],
    pattern:
      /(?:dropbox)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{15})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "dropbox-long-lived-api-token",
    keywords: ["dropbox"],
    pattern:
      /(?:dropbox)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{11}(AAAAAAAAAA)[a-z0-9\-_=]{43})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "dropbox-short-lived-api-token",
    keywords: ["dropbox"],
    pattern:
      /(?:dropbox)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(sl\.[a-z0-9\-=_]{135})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "duffel-api-token",
    keywords: ["duffel_"],
    entropy: 2,
    pattern: /duffel_(?:test|live)_(?i:[a-z0-9_\-=]{43})/,
  },
  {
    id: "dynatrace-api-token",
    keywords: ["dt0c01."],
    entropy: 4,
    pattern: /dt0c01\.(?i:[a-z0-9]{24}\.[a-z0-9]{64})/,
  },
  { id: "easypost-api-token", keywords: ["ezak"], entropy: 2, pattern: /\bEZAK(?i:[a-z0-9]{54}\b)/ },
  { id: "easypost-test-api-token", keywords: ["eztk"], entropy: 2, pattern: /\bEZTK(?i:[a-z0-9]{54}\b)/ },
  {
    id: "etsy-access-token",
    keywords: ["etsy"],
    entropy: 3,
    pattern:
      /(?:(?-i:ETSY|[Ee]tsy))(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{24})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "facebook-access-token",
    keywords: ["facebook"],
    entropy: 3,
    pattern: /\b(\d{15,16}(\||%)[0-9a-z\-_]{27,40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "facebook-page-access-token",
    keywords: ["eaam", "eaac"],
    entropy: 4,
    pattern: /\b(EAA[MC](?i:[a-z0-9]{100,}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "facebook-secret",
    keywords: ["facebook"],
    entropy: 3,
    pattern:
      /(?:facebook)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "fastly-api-token",
    keywords: ["fastly"],
    pattern:
      /(?:fastly)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9=_-]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "finicity-api-token",
    keywords: ["finicity"],
    pattern:
      /(?:finicity)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "finicity-client-secret",
    keywords: ["finicity"],
    pattern:
      /(?:finicity)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{20})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "finnhub-access-token",
    keywords: ["finnhub"],
    pattern:
      /(?:finnhub)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{20})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "flickr-access-token",
    keywords: ["flickr"],
    pattern:
      /(?:flickr)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "flutterwave-encryption-key",
    keywords: ["flwseck_test"],
    entropy: 2,
    pattern: /FLWSECK_TEST-(?i:[a-h0-9]{12})/,
  },
  {
    id: "flutterwave-public-key",
    keywords: ["flwpubk_test"],
    entropy: 2,
    pattern: /FLWPUBK_TEST-(?i:[a-h0-9]{32}-X)/,
  },
  {
    id: "flutterwave-secret-key",
    keywords: ["flwseck_test"],
    entropy: 2,
    pattern: /FLWSECK_TEST-(?i:[a-h0-9]{32}-X)/,
  },
  {
    id: "flyio-access-token",
    keywords: ["fo1_", "fm1", "fm2_"],
    entropy: 4,
    pattern:
      /\b((?:fo1_[\w-]{43}|fm1[ar]_[a-zA-Z0-9+/]{100,}={0,3}|fm2_[a-zA-Z0-9+/]{100,}={0,3}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  { id: "frameio-api-token", keywords: ["fio-u-"], pattern: /fio-u-(?i:[a-z0-9\-_=]{64})/ },
  {
    id: "freemius-secret-key",
    keywords: ["secret_key"],
    pattern: /["']secret_key["']\s*=>\s*["'](sk_[\S]{29})["']/i,
  },
  {
    id: "freshbooks-access-token",
    keywords: ["freshbooks"],
    pattern:
      /(?:freshbooks)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  { id: "gcp-api-key", keywords: ["aiza"], entropy: 4, pattern: /\b(AIza[\w-]{35})(?:[\x60'"\s;]|\\[nr]|$)/ },
  {
    id: "generic-api-key",
    keywords: [
      "access",
      "api",
      "auth",
      "key",
      "credential",
      "creds",
      "passwd",
      "password",
      "secret",
      "token",
    ],
    entropy: 3.5,
    pattern:
      /(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)/i,
    allow: [
      { regexes: [/^[a-zA-Z_.-]+$/] },
      {
        target: "match",
        regexes: [
          /(?:access(?:ibility|or)|access[_.-]?id|random[_.-]?access|api[_.-]?(?:id|name|version)|rapid|capital|api[a-z0-9-]*?:jar:|author|X-MS-Exchange-Organization-Auth|Authentication-Results|(?:credentials?[_.-]?id|withCredentials)|(?:bucket|foreign|hot|idx|natural|primary|pub(?:lic)?|schema|sequence)[_.-]?key|(?:turkey)|key[_.-]?(?:alias|board|code|frame|id|length|mesh|name|pair|press(?:ed)?|ring|selector|signature|size|stone|storetype|word|up|down|left|right)|key[_.-]?vault[_.-]?(?:id|name)|keyVaultToStoreSecrets|key(?:store|tab)[_.-]?(?:file|path)|issuerkeyhash|(?-i:[DdMm]onkey|[DM]ONKEY)|keying|(?:secret)[_.-]?(?:length|name|size)|UserSecretsId|(?:csrf)[_.-]?token|(?:io\.jsonwebtoken[ \t]?:[ \t]?[\w-]+)|(?:api|credentials|token)[_.-]?(?:endpoint|ur[il])|public[_.-]?token|(?:key|token)[_.-]?file|(?-i:(?:[A-Z_]+=\n[A-Z_]+=|[a-z_]+=\n[a-z_]+=)(?:\n|$))|(?-i:(?:[A-Z.]+=\n[A-Z.]+=|[a-z.]+=\n[a-z.]+=)(?:\n|$)))/i,
        ],
        stopwords: GENERIC_STOPWORDS,
      },
      {
        target: "line",
        regexes: [/--mount=type=secret,/, /import[ \t]+{[ \t\w,]+}[ \t]+from[ \t]+['"][^'"]+['"]/],
      },
      {
        target: "line",
        regexes: [/LICENSE[^=]*=\s*"[^"]+/, /LIC_FILES_CHKSUM[^=]*=\s*"[^"]+/, /SRC[^=]*=\s*"[a-zA-Z0-9]+/],
      },
    ],
  },
  { id: "github-app-token", keywords: ["ghu_", "ghs_"], entropy: 3, pattern: /(?:ghu|ghs)_[0-9a-zA-Z]{36}/ },
  { id: "github-fine-grained-pat", keywords: ["github_pat_"], entropy: 3, pattern: /github_pat_\w{82}/ },
  { id: "github-oauth", keywords: ["gho_"], entropy: 3, pattern: /gho_[0-9a-zA-Z]{36}/ },
  { id: "github-pat", keywords: ["ghp_"], entropy: 3, pattern: /ghp_[0-9a-zA-Z]{36}/ },
  { id: "github-refresh-token", keywords: ["ghr_"], entropy: 3, pattern: /ghr_[0-9a-zA-Z]{36}/ },
  {
    id: "gitlab-cicd-job-token",
    keywords: ["glcbt-"],
    entropy: 3,
    pattern: /glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}/,
  },
  { id: "gitlab-deploy-token", keywords: ["gldt-"], entropy: 3, pattern: /gldt-[0-9a-zA-Z_-]{20}/ },
  {
    id: "gitlab-feature-flag-client-token",
    keywords: ["glffct-"],
    entropy: 3,
    pattern: /glffct-[0-9a-zA-Z_-]{20}/,
  },
  { id: "gitlab-feed-token", keywords: ["glft-"], entropy: 3, pattern: /glft-[0-9a-zA-Z_-]{20}/ },
  { id: "gitlab-incoming-mail-token", keywords: ["glimt-"], entropy: 3, pattern: /glimt-[0-9a-zA-Z_-]{25}/ },
  {
    id: "gitlab-kubernetes-agent-token",
    keywords: ["glagent-"],
    entropy: 3,
    pattern: /glagent-[0-9a-zA-Z_-]{50}/,
  },
  { id: "gitlab-oauth-app-secret", keywords: ["gloas-"], entropy: 3, pattern: /gloas-[0-9a-zA-Z_-]{64}/ },
  { id: "gitlab-pat", keywords: ["glpat-"], entropy: 3, pattern: /glpat-[\w-]{20}/ },
  {
    id: "gitlab-pat-routable",
    keywords: ["glpat-"],
    entropy: 4,
    pattern: /\bglpat-[0-9a-zA-Z_-]{27,300}\.[0-9a-z]{2}[0-9a-z]{7}\b/,
  },
  { id: "gitlab-ptt", keywords: ["glptt-"], entropy: 3, pattern: /glptt-[0-9a-f]{40}/ },
  { id: "gitlab-rrt", keywords: ["gr1348941"], entropy: 3, pattern: /GR1348941[\w-]{20}/ },
  {
    id: "gitlab-runner-authentication-token",
    keywords: ["glrt-"],
    entropy: 3,
    pattern: /glrt-[0-9a-zA-Z_-]{20}/,
  },
  {
    id: "gitlab-runner-authentication-token-routable",
    keywords: ["glrt-"],
    entropy: 4,
    pattern: /\bglrt-t\d_[0-9a-zA-Z_-]{27,300}\.[0-9a-z]{2}[0-9a-z]{7}\b/,
  },
  { id: "gitlab-scim-token", keywords: ["glsoat-"], entropy: 3, pattern: /glsoat-[0-9a-zA-Z_-]{20}/ },
  {
    id: "gitlab-session-cookie",
    keywords: ["_gitlab_session="],
    entropy: 3,
    pattern: /_gitlab_session=[0-9a-z]{32}/,
  },
  {
    id: "gitter-access-token",
    keywords: ["gitter"],
    pattern:
      /(?:gitter)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9_-]{40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "gocardless-api-token",
    keywords: ["live_", "gocardless"],
    pattern:
      /(?:gocardless)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(live_(?i:[a-z0-9\-_=]{40}))(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "grafana-api-key",
    keywords: ["eyjrijoi"],
    entropy: 3,
    pattern: /\b(eyJrIjoi[A-Za-z0-9]{70,400}={0,3})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "grafana-cloud-api-token",
    keywords: ["glc_"],
    entropy: 3,
    pattern: /\b(glc_[A-Za-z0-9+/]{32,400}={0,3})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "grafana-service-account-token",
    keywords: ["glsa_"],
    entropy: 3,
    pattern: /\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "harness-api-key",
    keywords: ["pat.", "sat."],
    pattern: /(?:pat|sat)\.[a-zA-Z0-9_-]{22}\.[a-zA-Z0-9]{24}\.[a-zA-Z0-9]{20}/,
  },
  {
    id: "hashicorp-tf-api-token",
    keywords: ["atlasv1"],
    entropy: 3.5,
    pattern: /[a-z0-9]{14}\.(?-i:atlasv1)\.[a-z0-9\-_=]{60,70}/i,
  },
  {
    id: "hashicorp-tf-password",
    keywords: ["administrator_login_password", "password"],
    entropy: 2,
    pattern:
      /(?:administrator_login_password|password)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}("[a-z0-9=_-]{8,20}")(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "heroku-api-key",
    keywords: ["heroku"],
    pattern:
      /(?:heroku)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "heroku-api-key-v2",
    keywords: ["hrku-aa"],
    entropy: 4,
    pattern: /\b((HRKU-AA[0-9a-zA-Z_-]{58}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "hubspot-api-key",
    keywords: ["hubspot"],
    pattern:
      /(?:hubspot)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "huggingface-access-token",
    keywords: ["hf_"],
    entropy: 2,
    pattern: /\b(hf_(?i:[a-z]{34}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "huggingface-organization-api-token",
    keywords: ["api_org_"],
    entropy: 2,
    pattern: /\b(api_org_(?i:[a-z]{34}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "infracost-api-token",
    keywords: ["ico-"],
    entropy: 3,
    pattern: /\b(ico-[a-zA-Z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "intercom-api-key",
    keywords: ["intercom"],
    pattern:
      /(?:intercom)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9=_-]{60})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "intra42-client-secret",
    keywords: ["intra", "s-s4t2ud-", "s-s4t2af-"],
    entropy: 3,
    pattern: /\b(s-s4t2(?:ud|af)-(?i:[abcdef0123456789]{64}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "jfrog-api-key",
    keywords: ["jfrog", "artifactory", "bintray", "xray"],
    pattern:
      /(?:jfrog|artifactory|bintray|xray)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{73})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "jfrog-identity-token",
    keywords: ["jfrog", "artifactory", "bintray", "xray"],
    pattern:
      /(?:jfrog|artifactory|bintray|xray)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "jwt",
    keywords: ["ey"],
    entropy: 3,
    pattern:
      /\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/\\_-]{17,}\.(?:[a-zA-Z0-9/\\_-]{10,}={0,2})?)(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "jwt-base64",
    keywords: ["zxlk"],
    entropy: 2,
    pattern:
      /\bZXlK(?:(?<alg>aGJHY2lPaU)|(?<apu>aGNIVWlPaU)|(?<apv>aGNIWWlPaU)|(?<aud>aGRXUWlPaU)|(?<b64>aU5qUWlP)|(?<crit>amNtbDBJanBi)|(?<cty>amRIa2lPaU)|(?<epk>bGNHc2lPbn)|(?<enc>bGJtTWlPaU)|(?<jku>cWEzVWlPaU)|(?<jwk>cWQyc2lPb)|(?<iss>cGMzTWlPaU)|(?<iv>cGRpSTZJ)|(?<kid>cmFXUWlP)|(?<key_ops>clpYbGZiM0J6SWpwY)|(?<kty>cmRIa2lPaUp)|(?<nonce>dWIyNWpaU0k2)|(?<p2c>d01tTWlP)|(?<p2s>d01uTWlPaU)|(?<ppt>d2NIUWlPaU)|(?<sub>emRXSWlPaU)|(?<svt>emRuUWlP)|(?<tag>MFlXY2lPaU)|(?<typ>MGVYQWlPaUp)|(?<url>MWNtd2l)|(?<use>MWMyVWlPaUp)|(?<ver>MlpYSWlPaU)|(?<version>MlpYSnphVzl1SWpv)|(?<x>NElqb2)|(?<x5c>NE5XTWlP)|(?<x5t>NE5YUWlPaU)|(?<x5ts256>NE5YUWpVekkxTmlJNkl)|(?<x5u>NE5YVWlPaU)|(?<zip>NmFYQWlPaU))[a-zA-Z0-9/\\_+\-\r\n]{40,}={0,2}/,
  },
  {
    id: "kraken-access-token",
    keywords: ["kraken"],
    pattern:
      /(?:kraken)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9/=_+-]{80,90})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "kubernetes-secret-yaml",
    keywords: ["secret"],
    pattern:
      /(?:\bkind:[ \t]*["']?\bsecret\b["']?[\s\S]{0,200}?\bdata:[\s\S]{0,100}?\s+([\w.-]+:(?:[ \t]*(?:\||>[-+]?)\s+)?[ \t]*(?:["']?[a-z0-9+/]{10,}={0,3}["']?|\{\{[ \t\w"|$:=,.-]+}}|""|''))|\bdata:[\s\S]{0,100}?\s+([\w.-]+:(?:[ \t]*(?:\||>[-+]?)\s+)?[ \t]*(?:["']?[a-z0-9+/]{10,}={0,3}["']?|\{\{[ \t\w"|$:=,.-]+}}|""|''))[\s\S]{0,200}?\bkind:[ \t]*["']?\bsecret\b["']?)/i,
    allow: [
      { regexes: [/[\w.-]+:(?:[ \t]*(?:\||>[-+]?)\s+)?[ \t]*(?:\{\{[ \t\w"|$:=,.-]+}}|""|'')/] },
      { target: "match", regexes: [/(kind:[\s\S]+\n---\n[\s\S]+\bdata:|data:[\s\S]+\n---\n[\s\S]+\bkind:)/] },
    ],
  },
  {
    id: "kucoin-access-token",
    keywords: ["kucoin"],
    pattern:
      /(?:kucoin)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{24})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "kucoin-secret-key",
    keywords: ["kucoin"],
    pattern:
      /(?:kucoin)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "launchdarkly-access-token",
    keywords: ["launchdarkly"],
    pattern:
      /(?:launchdarkly)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9=_-]{40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  { id: "linear-api-key", keywords: ["lin_api_"], entropy: 2, pattern: /lin_api_(?i:[a-z0-9]{40})/ },
  {
    id: "linear-client-secret",
    keywords: ["linear"],
    entropy: 2,
    pattern:
      /(?:linear)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "linkedin-client-id",
    keywords: ["linkedin", "linked_in", "linked-in"],
    entropy: 2,
    pattern:
      /(?:linked[_-]?in)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{14})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "linkedin-client-secret",
    keywords: ["linkedin", "linked_in", "linked-in"],
    entropy: 2,
    pattern:
      /(?:linked[_-]?in)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{16})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "lob-api-key",
    keywords: ["test_", "live_"],
    pattern:
      /(?:lob)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}((live|test)_[a-f0-9]{35})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "lob-pub-api-key",
    keywords: ["test_pub", "live_pub", "_pub"],
    pattern:
      /(?:lob)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}((test|live)_pub_[a-f0-9]{31})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "looker-client-id",
    keywords: ["looker"],
    pattern:
      /(?:looker)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{20})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "looker-client-secret",
    keywords: ["looker"],
    pattern:
      /(?:looker)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{24})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "mailchimp-api-key",
    keywords: ["mailchimp"],
    pattern:
      /(?:MailchimpSDK.initialize|mailchimp)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{32}-us\d\d)(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "mailgun-private-api-token",
    keywords: ["mailgun"],
    pattern:
      /(?:mailgun)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(key-[a-f0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "mailgun-pub-key",
    keywords: ["mailgun"],
    pattern:
      /(?:mailgun)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(pubkey-[a-f0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "mailgun-signing-key",
    keywords: ["mailgun"],
    pattern:
      /(?:mailgun)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "mapbox-api-token",
    keywords: ["mapbox"],
    pattern:
      /(?:mapbox)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(pk\.[a-z0-9]{60}\.[a-z0-9]{22})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "mattermost-access-token",
    keywords: ["mattermost"],
    pattern:
      /(?:mattermost)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{26})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "maxmind-license-key",
    keywords: ["_mmk"],
    entropy: 4,
    pattern: /\b([A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "messagebird-api-token",
    keywords: ["messagebird", "message-bird", "message_bird"],
    pattern:
      /(?:message[_-]?bird)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{25})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "messagebird-client-id",
    keywords: ["messagebird", "message-bird", "message_bird"],
    pattern:
      /(?:message[_-]?bird)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "microsoft-teams-webhook",
    keywords: ["webhook.office.com", "webhookb2", "incomingwebhook"],
    pattern:
      /https:\/\/[a-z0-9]+\.webhook\.office\.com\/webhookb2\/[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}@[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}\/IncomingWebhook\/[a-z0-9]{32}\/[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}/,
  },
  {
    id: "netlify-access-token",
    keywords: ["netlify"],
    pattern:
      /(?:netlify)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9=_-]{40,46})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "new-relic-browser-api-token",
    keywords: ["nrjs-"],
    pattern:
      /(?:new-relic|newrelic|new_relic)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(NRJS-[a-f0-9]{19})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "new-relic-insert-key",
    keywords: ["nrii-"],
    pattern:
      /(?:new-relic|newrelic|new_relic)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(NRII-[a-z0-9-]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "new-relic-user-api-id",
    keywords: ["new-relic", "newrelic", "new_relic"],
    pattern:
      /(?:new-relic|newrelic|new_relic)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "new-relic-user-api-key",
    keywords: ["nrak"],
    pattern:
      /(?:new-relic|newrelic|new_relic)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(NRAK-[a-z0-9]{27})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "notion-api-token",
    keywords: ["ntn_"],
    entropy: 4,
    pattern: /\b(ntn_[0-9]{11}[A-Za-z0-9]{32}[A-Za-z0-9]{3})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "npm-access-token",
    keywords: ["npm_"],
    entropy: 2,
    pattern: /\b(npm_[a-z0-9]{36})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "nuget-config-password",
    keywords: ["<add key="],
    entropy: 1,
    pattern: /<add key="(?:(?:ClearText)?Password)"\s*value="(.{8,})"\s*\/>/i,
  },
  {
    id: "nytimes-access-token",
    keywords: ["nytimes", "new-york-times", "newyorktimes"],
    pattern:
      /(?:nytimes|new-york-times,|newyorktimes)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9=_-]{32})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "octopus-deploy-api-key",
    keywords: ["api-"],
    entropy: 3,
    pattern: /\b(API-[A-Z0-9]{26})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "okta-access-token",
    keywords: ["okta"],
    entropy: 4,
    pattern:
      /(?i:(?:(?-i:[Oo]kta|OKTA))(?:[ \t\w.-]{0,20})[\s'"]{0,3})(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(00[\w=-]{40})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "openai-api-key",
    keywords: ["t3blbkfj"],
    entropy: 3,
    pattern:
      /\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "openshift-user-token",
    keywords: ["sha256~"],
    entropy: 3.5,
    pattern: /\b(sha256~[\w-]{43})(?:[^\w-]|$)/,
  },
  {
    id: "perplexity-api-key",
    keywords: ["pplx-"],
    entropy: 4,
    pattern: /\b(pplx-[a-zA-Z0-9]{48})(?:[\x60'"\s;]|\\[nr]|$|\b)/,
  },
  {
    id: "plaid-api-token",
    keywords: ["plaid"],
    pattern:
      /(?:plaid)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "plaid-client-id",
    keywords: ["plaid"],
    entropy: 3.5,
    pattern:
      /(?:plaid)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{24})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "plaid-secret-key",
    keywords: ["plaid"],
    entropy: 3.5,
    pattern:
      /(?:plaid)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{30})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "planetscale-api-token",
    keywords: ["pscale_tkn_"],
    entropy: 3,
    pattern: /\b(pscale_tkn_(?i:[\w=.-]{32,64}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "planetscale-oauth-token",
    keywords: ["pscale_oauth_"],
    entropy: 3,
    pattern: /\b(pscale_oauth_[\w=.-]{32,64})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "planetscale-password",
    keywords: ["pscale_pw_"],
    entropy: 3,
    pattern: /\b(pscale_pw_(?i:[\w=.-]{32,64}))(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "postman-api-token",
    keywords: ["pmak-"],
    entropy: 3,
    pattern: /\b(PMAK-(?i:[a-f0-9]{24}-[a-f0-9]{34}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "prefect-api-token",
    keywords: ["pnu_"],
    entropy: 2,
    pattern: /\b(pnu_[a-zA-Z0-9]{36})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "private-key",
    keywords: ["-----begin"],
    pattern: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]{64,}?KEY(?: BLOCK)?-----/i,
  },
  {
    id: "privateai-api-token",
    keywords: ["privateai", "private_ai", "private-ai"],
    entropy: 3,
    pattern:
      /(?i:(?:private[_-]?ai)(?:[ \t\w.-]{0,20})[\s'"]{0,3})(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "pulumi-api-token",
    keywords: ["pul-"],
    entropy: 2,
    pattern: /\b(pul-[a-f0-9]{40})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "pypi-upload-token",
    keywords: ["pypi-ageichlwas5vcmc"],
    entropy: 3,
    pattern: /pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}/,
  },
  {
    id: "rapidapi-access-token",
    keywords: ["rapidapi"],
    pattern:
      /(?:rapidapi)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9_-]{50})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "readme-api-token",
    keywords: ["rdme_"],
    entropy: 2,
    pattern: /\b(rdme_[a-z0-9]{70})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "rubygems-api-token",
    keywords: ["rubygems_"],
    entropy: 2,
    pattern: /\b(rubygems_[a-f0-9]{48})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "scalingo-api-token",
    keywords: ["tk-us-"],
    entropy: 2,
    pattern: /\b(tk-us-[\w-]{48})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "sendbird-access-id",
    keywords: ["sendbird"],
    pattern:
      /(?:sendbird)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "sendbird-access-token",
    keywords: ["sendbird"],
    pattern:
      /(?:sendbird)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "sendgrid-api-token",
    keywords: ["sg."],
    entropy: 2,
    pattern: /\b(SG\.(?i:[a-z0-9=_\-.]{66}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "sendinblue-api-token",
    keywords: ["xkeysib-"],
    entropy: 2,
    pattern: /\b(xkeysib-[a-f0-9]{64}-(?i:[a-z0-9]{16}))(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "sentry-access-token",
    keywords: ["sentry"],
    entropy: 3,
    pattern:
      /(?:sentry)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "sentry-org-token",
    keywords: ["sntrys_eyjpyxqio"],
    entropy: 4.5,
    pattern:
      /\bsntrys_eyJpYXQiO[a-zA-Z0-9+/]{10,200}(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)[a-zA-Z0-9+/]{10,200}={0,2}_[a-zA-Z0-9+/]{43}(?:[^a-zA-Z0-9+/]|$)/,
  },
  {
    id: "sentry-user-token",
    keywords: ["sntryu_"],
    entropy: 3.5,
    pattern: /\b(sntryu_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "settlemint-application-access-token",
    keywords: ["sm_aat"],
    entropy: 3,
    pattern: /\b(sm_aat_[a-zA-Z0-9]{16})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "settlemint-personal-access-token",
    keywords: ["sm_pat"],
    entropy: 3,
    pattern: /\b(sm_pat_[a-zA-Z0-9]{16})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "settlemint-service-access-token",
    keywords: ["sm_sat"],
    entropy: 3,
    pattern: /\b(sm_sat_[a-zA-Z0-9]{16})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "shippo-api-token",
    keywords: ["shippo_"],
    entropy: 2,
    pattern: /\b(shippo_(?:live|test)_[a-fA-F0-9]{40})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  { id: "shopify-access-token", keywords: ["shpat_"], entropy: 2, pattern: /shpat_[a-fA-F0-9]{32}/ },
  { id: "shopify-custom-access-token", keywords: ["shpca_"], entropy: 2, pattern: /shpca_[a-fA-F0-9]{32}/ },
  {
    id: "shopify-private-app-access-token",
    keywords: ["shppa_"],
    entropy: 2,
    pattern: /shppa_[a-fA-F0-9]{32}/,
  },
  { id: "shopify-shared-secret", keywords: ["shpss_"], entropy: 2, pattern: /shpss_[a-fA-F0-9]{32}/ },
  {
    id: "sidekiq-secret",
    keywords: ["bundle_enterprise__contribsys__com", "bundle_gems__contribsys__com"],
    pattern:
      /(?:BUNDLE_ENTERPRISE__CONTRIBSYS__COM|BUNDLE_GEMS__CONTRIBSYS__COM)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{8}:[a-f0-9]{8})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "sidekiq-sensitive-url",
    keywords: ["gems.contribsys.com", "enterprise.contribsys.com"],
    pattern:
      /\bhttps?:\/\/([a-f0-9]{8}:[a-f0-9]{8})@(?:gems.contribsys.com|enterprise.contribsys.com)(?:[/|#|?|:]|$)/i,
  },
  { id: "slack-app-token", keywords: ["xapp"], entropy: 2, pattern: /xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+/i },
  {
    id: "slack-bot-token",
    keywords: ["xoxb"],
    entropy: 3,
    pattern: /xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*/,
  },
  {
    id: "slack-config-access-token",
    keywords: ["xoxe.xoxb-", "xoxe.xoxp-"],
    entropy: 2,
    pattern: /xoxe.xox[bp]-\d-[A-Z0-9]{163,166}/i,
  },
  { id: "slack-config-refresh-token", keywords: ["xoxe-"], entropy: 2, pattern: /xoxe-\d-[A-Z0-9]{146}/i },
  {
    id: "slack-legacy-bot-token",
    keywords: ["xoxb"],
    entropy: 2,
    pattern: /xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}/,
  },
  {
    id: "slack-legacy-token",
    keywords: ["xoxo", "xoxs"],
    entropy: 2,
    pattern: /xox[os]-\d+-\d+-\d+-[a-fA-F\d]+/,
  },
  {
    id: "slack-legacy-workspace-token",
    keywords: ["xoxa", "xoxr"],
    entropy: 2,
    pattern: /xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}/,
  },
  {
    id: "slack-user-token",
    keywords: ["xoxp-", "xoxe-"],
    entropy: 2,
    pattern: /xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}/,
  },
  {
    id: "slack-webhook-url",
    keywords: ["hooks.slack.com"],
    pattern: /(?:https?:\/\/)?hooks.slack.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/]{43,56}/,
  },
  {
    id: "snyk-api-token",
    keywords: ["snyk"],
    pattern:
      /(?:snyk[_.-]?(?:(?:api|oauth)[_.-]?)?(?:key|token))(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "sonar-api-token",
    keywords: ["sonar"],
    secretGroup: 2,
    pattern:
      /(?:sonar[_.-]?(login|token))(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}((?:squ_|sqp_|sqa_)?[a-z0-9=_-]{40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "sourcegraph-access-token",
    keywords: ["sgp_", "sourcegraph"],
    entropy: 3,
    pattern:
      /\b(\b(sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|sgp_[a-fA-F0-9]{40}|[a-fA-F0-9]{40})\b)(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "square-access-token",
    keywords: ["sq0atp-", "eaaa"],
    entropy: 2,
    pattern: /\b((?:EAAA|sq0atp-)[\w-]{22,60})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "squarespace-access-token",
    keywords: ["squarespace"],
    pattern:
      /(?:squarespace)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "stripe-access-token",
    keywords: ["sk_test", "sk_live", "sk_prod", "rk_test", "rk_live", "rk_prod"],
    entropy: 2,
    pattern: /\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "sumologic-access-id",
    keywords: ["sumo"],
    entropy: 3,
    pattern:
      /(?i:(?:(?-i:[Ss]umo|SUMO))(?:[ \t\w.-]{0,20})[\s'"]{0,3})(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(su[a-zA-Z0-9]{12})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "sumologic-access-token",
    keywords: ["sumo"],
    entropy: 3,
    pattern:
      /(?:(?-i:[Ss]umo|SUMO))(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "telegram-bot-api-token",
    keywords: ["telegr"],
    pattern:
      /(?:telegr)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9]{5,16}:(?-i:A)[a-z0-9_-]{34})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "travisci-access-token",
    keywords: ["travis"],
    pattern:
      /(?:travis)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{22})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  { id: "twilio-api-key", keywords: ["sk"], entropy: 3, pattern: /SK[0-9a-fA-F]{32}/ },
  {
    id: "twitch-api-token",
    keywords: ["twitch"],
    pattern:
      /(?:twitch)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{30})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "twitter-access-secret",
    keywords: ["twitter"],
    pattern:
      /(?:twitter)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{45})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "twitter-access-token",
    keywords: ["twitter"],
    pattern:
      /(?:twitter)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([0-9]{15,25}-[a-zA-Z0-9]{20,40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "twitter-api-key",
    keywords: ["twitter"],
    pattern:
      /(?:twitter)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{25})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "twitter-api-secret",
    keywords: ["twitter"],
    pattern:
      /(?:twitter)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{50})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "twitter-bearer-token",
    keywords: ["twitter"],
    pattern:
      /(?:twitter)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(A{22}[a-zA-Z0-9%]{80,100})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "typeform-api-token",
    keywords: ["tfp_"],
    pattern:
      /(?:typeform)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(tfp_[a-z0-9\-_.=]{59})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "vault-batch-token",
    keywords: ["hvb."],
    entropy: 4,
    pattern: /\b(hvb\.[\w-]{138,300})(?:[\x60'"\s;]|\\[nr]|$)/,
  },
  {
    id: "vault-service-token",
    keywords: ["hvs.", "s."],
    entropy: 3.5,
    pattern: /\b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))(?:[\x60'"\s;]|\\[nr]|$)/,
    allow: [{ regexes: [/s\.[A-Za-z]{24}/] }],
  },
  {
    id: "yandex-access-token",
    keywords: ["yandex"],
    pattern:
      /(?:yandex)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(t1\.[A-Z0-9a-z_-]+[=]{0,2}\.[A-Z0-9a-z_-]{86}[=]{0,2})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "yandex-api-key",
    keywords: ["yandex"],
    pattern:
      /(?:yandex)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(AQVN[A-Za-z0-9_-]{35,38})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "yandex-aws-access-token",
    keywords: ["yandex"],
    pattern:
      /(?:yandex)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(YC[a-zA-Z0-9_-]{38})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
  {
    id: "zendesk-secret-key",
    keywords: ["zendesk"],
    pattern:
      /(?:zendesk)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-z0-9]{40})(?:[\x60'"\s;]|\\[nr]|$)/i,
  },
];
