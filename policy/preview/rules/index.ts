import type { PreviewRule } from "../rule.ts";
import { CONTAINER_RULES } from "./containers.ts";
import { COPY_RULE } from "./copy.ts";
import { FILE_RULES } from "./files.ts";
import { GUEST_RULES } from "./guests.ts";
import { PACKAGE_RULES } from "./packages.ts";
import { SERVICE_RULES } from "./services.ts";
import { STORAGE_RULES } from "./storage.ts";

/** Every preview rule, tried in this order; the first that knows a statement answers for it. */
export const PREVIEW_RULES: readonly PreviewRule[] = [
  ...FILE_RULES,
  COPY_RULE,
  ...PACKAGE_RULES,
  ...CONTAINER_RULES,
  ...SERVICE_RULES,
  ...GUEST_RULES,
  ...STORAGE_RULES,
];
