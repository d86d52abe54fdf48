import type { ToolSpec } from "../tool-spec.ts";
import { CONTAINER_TOOLS } from "./containers.ts";
import { DAEMON_CLIENT_TOOLS } from "./daemon-clients.ts";
import { DATABASE_TOOLS } from "./databases.ts";
import { DISK_TOOLS } from "./disks.ts";
import { FILE_INFO_TOOLS } from "./file-info.ts";
import { FIND_TAR_TOOLS } from "./find-tar.ts";
import { FIREWALL_TOOLS } from "./firewalls.ts";
import { GIT_TOOLS } from "./git.ts";
import { HARDWARE_TOOLS } from "./hardware.ts";
import { HOST_INFO_TOOLS } from "./host-info.ts";
import { HTTP_CLIENT_TOOLS } from "./http-clients.ts";
import { NETWORK_INSPECTION_TOOLS } from "./network-inspection.ts";
import { PACKAGE_TOOLS } from "./packages.ts";
import { PROCESS_TOOLS } from "./processes.ts";
import { RCLONE_TOOLS } from "./rclone.ts";
import { SESSION_AND_SYNC_TOOLS } from "./sessions-sync.ts";
import { STORAGE_TOOLS } from "./storage.ts";
import { SYSTEMD_TOOLS } from "./systemd.ts";
import { TEXT_PROGRAM_TOOLS } from "./text-programs.ts";
import { TEXT_READER_TOOLS } from "./text-readers.ts";
import { TEXT_SEARCH_TOOLS } from "./text-search.ts";
import { TEXT_TRANSFORM_TOOLS } from "./text-transforms.ts";
import { VIRTUALISATION_TOOLS } from "./virtualisation.ts";

/** Every tool the read-only proof covers, by command name. */
export const TOOLS: ReadonlyMap<string, ToolSpec> = new Map(
  Object.entries({
    ...TEXT_READER_TOOLS,
    ...TEXT_SEARCH_TOOLS,
    ...TEXT_TRANSFORM_TOOLS,
    ...TEXT_PROGRAM_TOOLS,
    ...FILE_INFO_TOOLS,
    ...HOST_INFO_TOOLS,
    ...PROCESS_TOOLS,
    ...HARDWARE_TOOLS,
    ...SYSTEMD_TOOLS,
    ...DAEMON_CLIENT_TOOLS,
    ...CONTAINER_TOOLS,
    ...VIRTUALISATION_TOOLS,
    ...STORAGE_TOOLS,
    ...DISK_TOOLS,
    ...FIND_TAR_TOOLS,
    ...NETWORK_INSPECTION_TOOLS,
    ...HTTP_CLIENT_TOOLS,
    ...FIREWALL_TOOLS,
    ...DATABASE_TOOLS,
    ...PACKAGE_TOOLS,
    ...GIT_TOOLS,
    ...RCLONE_TOOLS,
    ...SESSION_AND_SYNC_TOOLS,
  }),
);
