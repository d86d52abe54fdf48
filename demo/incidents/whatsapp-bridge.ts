import type { Incident } from "../incident.ts";
import { match, type ScriptedToolCall } from "../scripted-model/index.ts";

const HOST = "host:elementsynapse";
const COMPOSE = "docker compose -f /opt/whatsapp/compose.yml";

const run = (command: string, purpose: string, step_seq?: number): ScriptedToolCall => ({
  name: "run",
  arguments: { target: HOST, command: `${COMPOSE} ${command}`, purpose, ...(step_seq ? { step_seq } : {}) },
});

/**
 * The demo's incident, after seed 000 F1 (evals/scenarios/02-…): the WhatsApp bridge of a Matrix
 * server stops delivering because its image is too old for WhatsApp's protocol. The agent looks
 * (read-only, nobody asked), proposes a plan, waits for the operator, updates the image, verifies,
 * records what it learned and reports in the thread.
 */
export const whatsappBridge: Incident = {
  title: "the WhatsApp bridge on elementsynapse stopped delivering messages",
  entity: {
    slug: HOST,
    type: "host",
    name: "elementsynapse",
    state: "active",
    attributes: { services: "synapse, mautrix-whatsapp", docker: true },
  },
  host: {
    vars: { image: "v0.10.1", bridge: "broken", up: "Up 3 days" },
    tools: {
      docker: [
        {
          args: "compose.*logs",
          when: { bridge: "broken" },
          stdout:
            "whatsapp  | WARN Websocket disconnected, reconnecting in 30s\n" +
            "whatsapp  | ERROR Client outdated (405): WhatsApp rejected the bridge's protocol version; update mautrix-whatsapp",
        },
        {
          args: "compose.*logs",
          stdout:
            "whatsapp  | INFO Connected to WhatsApp as +49 151 0000000\nwhatsapp  | INFO Bridging 12 portals",
        },
        {
          args: "compose.*ps",
          stdout:
            "NAME      IMAGE                                    STATUS\n" +
            "whatsapp  dock.mau.dev/mautrix/whatsapp:{{image}}  {{up}}",
        },
        { args: "compose.*pull", set: { image: "v0.11.2" }, stdout: "whatsapp Pulled (v0.11.2)" },
        {
          args: "compose.*up -d",
          set: { bridge: "healthy", up: "Up 2 seconds" },
          stdout: "Container whatsapp  Recreated\nContainer whatsapp  Started",
        },
      ],
    },
  },
  opening: "The WhatsApp bridge stopped delivering messages, can you fix it?",
  script: [
    {
      name: "look",
      when: match.lastUserMessage(/WhatsApp bridge/i),
      reply: {
        text: "Looking at the bridge on elementsynapse first (read-only).",
        toolCalls: [
          {
            name: "set_goal",
            arguments: { goal: "Make the WhatsApp bridge on elementsynapse deliver again" },
          },
          run("ps", "is the bridge container running, and on which image"),
          run("logs --tail=50", "why the bridge stopped delivering"),
        ],
      },
    },
    {
      name: "plan",
      when: match.lastToolResult(/Client outdated \(405\)/, "run"),
      reply: {
        text:
          "The bridge runs but WhatsApp rejects it: its image (v0.10.1) speaks a protocol version WhatsApp no " +
          "longer accepts (405). Pulling the current image and recreating the container should fix it.",
        toolCalls: [
          {
            name: "propose_plan",
            arguments: {
              steps: [
                { title: "Pull the current bridge image", target: HOST, risk: "config_mutation" },
                { title: "Recreate the bridge container", target: HOST, risk: "config_mutation" },
                { title: "Verify the bridge connects to WhatsApp", target: HOST, risk: "read_only" },
              ],
            },
          },
        ],
      },
    },
    {
      name: "denied",
      when: match.anyMessage(/operator denied plan 1/),
      reply: { text: "Understood: nothing was changed on elementsynapse. Tell me what you would rather do." },
    },
    {
      name: "fix",
      when: match.anyMessage(/operator approved plan 1/),
      reply: {
        toolCalls: [
          run("pull", "the image is too old for WhatsApp's protocol", 1),
          run("up -d", "recreate the bridge on the new image", 2),
        ],
      },
    },
    {
      name: "verify",
      when: match.lastToolResult(/Started/, "run"),
      reply: { toolCalls: [run("logs --tail=20", "does the bridge connect now", 3)] },
    },
    {
      name: "write-back",
      when: match.lastToolResult(/Connected to WhatsApp/, "run"),
      reply: {
        toolCalls: [
          {
            name: "update_entity_attributes",
            arguments: { slug: HOST, attributes: { "whatsapp.image": "v0.11.2" } },
          },
          { name: "update_plan_step", arguments: { seq: 4, status: "done", note: "bridge image recorded" } },
          {
            name: "complete_task",
            arguments: {
              outcome: "success",
              summary:
                "The bridge image (v0.10.1) was too old: WhatsApp rejected its protocol version (405). Pulled v0.11.2 " +
                "and recreated the container; the bridge is connected again.",
              verification: "docker compose logs shows 'Connected to WhatsApp'",
              root_cause: "outdated mautrix-whatsapp image",
            },
          },
        ],
      },
    },
  ],
  fallback: "(the recorded incident has nothing more to say)",
};
