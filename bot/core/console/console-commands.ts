import type { Db } from "../../../store/db.ts";
import type { BotCommand } from "../bot-commands.ts";
import { entitiesCommand, entityCommand } from "./entity-commands.ts";
import {
  entityAddCommand,
  entityDeleteCommand,
  entityRetireCommand,
  entityStateCommand,
} from "./entity-edit-commands.ts";
import { knowledgeCommand } from "./knowledge-command.ts";
import { metricsCommand } from "./metrics-command.ts";
import { patternsCommand } from "./pattern-commands.ts";
import { previewCommand } from "./preview-command.ts";
import { taskCommand, tasksCommand } from "./task-commands.ts";

/** The operator's console: reads and edits of what oikos holds, answered without the model. */
export function consoleCommands(db: Db): BotCommand[] {
  return [
    tasksCommand(db),
    taskCommand(db),
    previewCommand(db),
    entityCommand(db),
    entitiesCommand(db),
    knowledgeCommand(db),
    entityAddCommand(db),
    entityStateCommand(db),
    entityRetireCommand(db),
    entityDeleteCommand(db),
    metricsCommand(db),
    patternsCommand(db),
  ];
}
