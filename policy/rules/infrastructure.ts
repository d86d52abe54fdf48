import type { CommandRule } from "./rule.ts";

/** Infrastructure-as-code tools: plans read, applies change, destroys destroy. */
export const INFRASTRUCTURE_RULES: CommandRule[] = [
  {
    names: ["terraform", "tofu"],
    what: "changes managed infrastructure",
    risk: "config_mutation",
    bundles: false,
    valueOptions: ["-chdir"],
    subcommands: {
      readOnly: ["version", "show", "output", "validate", "providers", "graph", "state list", "state show"],
      mutating: [
        "plan",
        "init",
        "apply",
        "import",
        "refresh",
        "taint",
        "untaint",
        "fmt",
        "state mv",
        "workspace new",
        "workspace select",
      ],
      destructive: ["destroy", "state rm", "workspace delete", "force-unlock"],
    },
    flags: { destructive: ["-destroy"] },
    examples: [
      ["terraform destroy", "destructive"],
      ["terraform apply -destroy -auto-approve", "destructive"],
      ["tofu destroy -target=aws_instance.web", "destructive"],
      ["terraform plan", "config_mutation"],
      ["terraform show", "read_only"],
    ],
  },
];
