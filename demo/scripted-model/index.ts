export { lastMessage, lastToolResult, match, messageText } from "./matchers.ts";
export { type ScriptedModelOptions, type ScriptedModelServer, startScriptedModel } from "./server.ts";
export type {
  ChatRequestBody,
  Matcher,
  RecordedRequest,
  ScriptedReply,
  ScriptedToolCall,
  ScriptStep,
  WireMessage,
} from "./types.ts";
