import type { ToolSpec } from "../tool-spec.ts";

/** The status and config-test commands of common daemons. */
export const DAEMON_CLIENT_TOOLS: Record<string, ToolSpec> = {
  nginx: {
    flags: "tTqV",
    valued: "c",
    // The configuration is code: `load_module` loads a library and log paths are opened for
    // writing as root, so only the server's own configuration tree may be tested.
    values: { "-c": (value) => /^\/etc\/nginx\//.test(value) && !value.split("/").includes("..") },
    check: (args) =>
      args.some((a) => a.static && /^-[qV]*[tTV]/.test(a.value))
        ? null
        : "nginx without -t/-T/-V starts or signals the server",
  },
  apachectl: { sub: { configtest: {} } },
  "fail2ban-client": { sub: { status: {}, ping: {}, version: {} } },
  // Every certbot run writes its log under /var/log/letsencrypt and takes its lock files.
  certbot: {
    custom: () =>
      "`certbot` writes its log and lock files on every run; read a certificate's dates with `openssl x509 -noout -dates -in /etc/letsencrypt/live/NAME/cert.pem`",
  },
  testparm: { flags: "sv", long: ["--suppress-prompt"] },
  smbstatus: { flags: "bSpLvnjB" },
  pg_isready: {
    flags: "q",
    valued: "dhpUt",
    longValued: ["--dbname", "--host", "--port", "--username", "--timeout"],
  },
};
