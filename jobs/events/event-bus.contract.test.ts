import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Redis } from "ioredis";
import { deleteRedisKeys, redisTestPrefix, redisTestUrl } from "../../test-support/redis.ts";
import { InProcessEventBus } from "./in-process.ts";
import { type EventBus, type EventErrorReporter, InvalidDomainEventError } from "./port.ts";
import { RedisEventBus } from "./redis.ts";
import type { DomainEvent } from "./types.ts";

const redisUrl = redisTestUrl();
const filePrefix = redisTestPrefix(import.meta.url);
const redisSkip = redisUrl ? false : "Redis event bus skipped: REDIS_URL is not set";
let busCount = 0;

after(async () => {
  if (redisUrl) await deleteRedisKeys(redisUrl, filePrefix);
});

type MakeBus = (onError: EventErrorReporter, prefix?: string) => Promise<EventBus>;

const adapters: { name: string; skip: string | false; make: MakeBus }[] = [
  { name: "in-process", skip: false, make: async (onError) => new InProcessEventBus({ onError }) },
  {
    name: "redis",
    skip: redisSkip,
    make: async (onError, prefix = `${filePrefix}_${++busCount}`) => {
      const bus = new RedisEventBus({ redisUrl: redisUrl!, prefix, onError });
      await bus.ready();
      return bus;
    },
  },
];

const planProposed: DomainEvent = { type: "plan.proposed", sessionId: "s1", generation: 1 };
const typing: DomainEvent = { type: "agent.typing", sessionId: "s1", active: true };

function collectErrors() {
  const errors: { error: unknown; event: DomainEvent | undefined }[] = [];
  const onError: EventErrorReporter = (error, event) => errors.push({ error, event });
  return { errors, onError };
}

for (const adapter of adapters) {
  describe(`event bus contract: ${adapter.name}`, { skip: adapter.skip, timeout: 20_000 }, () => {
    test("subscribers get the events of their type, '*' gets every event", async () => {
      const bus = await adapter.make(collectErrors().onError);
      try {
        const plans: number[] = [];
        const all: string[] = [];
        bus.subscribe("plan.proposed", (event) => {
          plans.push(event.generation);
        });
        bus.subscribe("*", (event) => {
          all.push(event.type);
        });
        await bus.publish(planProposed);
        await bus.publish(typing);
        assert.deepEqual(plans, [1]);
        assert.deepEqual(all, ["plan.proposed", "agent.typing"]);
      } finally {
        await bus.close();
      }
    });

    test("a failing handler breaks neither the publisher nor the other handlers", async () => {
      const { errors, onError } = collectErrors();
      const bus = await adapter.make(onError);
      try {
        const delivered: string[] = [];
        bus.subscribe("plan.proposed", () => {
          throw new Error("renderer broke");
        });
        bus.subscribe("plan.proposed", async () => {
          await Promise.reject(new Error("async renderer broke"));
        });
        bus.subscribe("plan.proposed", () => {
          delivered.push("second");
        });
        bus.subscribe("*", () => {
          delivered.push("star");
        });
        await bus.publish(planProposed);
        assert.deepEqual(delivered.sort(), ["second", "star"]);
        assert.deepEqual(
          errors.map((e) => [(e.error as Error).message, e.event?.type]),
          [
            ["renderer broke", "plan.proposed"],
            ["async renderer broke", "plan.proposed"],
          ],
        );
      } finally {
        await bus.close();
      }
    });

    test("unsubscribe stops delivery to that handler only", async () => {
      const bus = await adapter.make(collectErrors().onError);
      try {
        const seen: string[] = [];
        const handler = () => {
          seen.push("a");
        };
        const offA = bus.subscribe("agent.typing", handler);
        bus.subscribe("agent.typing", handler);
        await bus.publish(typing);
        offA();
        offA();
        await bus.publish(typing);
        assert.deepEqual(seen, ["a", "a", "a"]);
      } finally {
        await bus.close();
      }
    });

    test("an invalid event is rejected at publish with what is wrong", async () => {
      const bus = await adapter.make(collectErrors().onError);
      try {
        let delivered = 0;
        bus.subscribe("*", () => {
          delivered++;
        });
        await assert.rejects(
          bus.publish({ type: "plan.proposed", sessionId: "s1" } as never),
          (error: unknown) => error instanceof InvalidDomainEventError && /generation/.test(error.message),
        );
        await assert.rejects(bus.publish({ type: "plan.exploded" } as never), InvalidDomainEventError);
        assert.equal(delivered, 0);
      } finally {
        await bus.close();
      }
    });

    test("the publishing instance delivers to its own subscribers exactly once", async () => {
      const { errors, onError } = collectErrors();
      const prefix = `${filePrefix}_${++busCount}`;
      const bus = await adapter.make(onError, prefix);
      // A second instance on the same channel (Redis only): its event arriving proves any echo
      // of ours, published before it on the same channel, would have arrived too.
      const other = adapter.name === "redis" ? await adapter.make(onError, prefix) : null;
      try {
        const seen: string[] = [];
        let markerArrived: () => void = () => {};
        const marker = new Promise<void>((resolve) => {
          markerArrived = resolve;
        });
        bus.subscribe("*", (event) => {
          seen.push(event.type);
          if (event.type === "session.status") markerArrived();
        });
        await bus.publish(planProposed);
        if (other) {
          await other.publish({ type: "session.status", sessionId: "s1", status: "executing" });
          await marker;
          assert.deepEqual(seen, ["plan.proposed", "session.status"]);
        } else {
          assert.deepEqual(seen, ["plan.proposed"]);
        }
        assert.deepEqual(errors, []);
      } finally {
        await other?.close();
        await bus.close();
      }
    });
  });
}

describe("redis event bus across instances", { skip: redisSkip, timeout: 20_000 }, () => {
  test("another instance receives validated events; unreadable messages are reported and skipped", async () => {
    const prefix = `${filePrefix}_${++busCount}`;
    const { errors, onError } = collectErrors();
    const publisher = new RedisEventBus({ redisUrl: redisUrl!, prefix, onError: collectErrors().onError });
    const receiver = new RedisEventBus({ redisUrl: redisUrl!, prefix, onError });
    const raw = new Redis(redisUrl!);
    try {
      await Promise.all([publisher.ready(), receiver.ready()]);
      const received: DomainEvent[] = [];
      let done: () => void = () => {};
      const finished = new Promise<void>((resolve) => {
        done = resolve;
      });
      receiver.subscribe("*", (event) => {
        received.push(event);
        if (event.type === "task.completed") done();
      });
      await publisher.publish({
        type: "execution.finished",
        sessionId: null,
        executionId: "e1",
        status: "completed",
      });
      await raw.publish(`${prefix}:events`, "not json");
      await raw.publish(`${prefix}:events`, JSON.stringify({ origin: "x", event: { type: "agent.typing" } }));
      await publisher.publish({ type: "task.completed", sessionId: "s1", outcome: "success" });
      await finished;
      assert.deepEqual(
        received.map((e) => e.type),
        ["execution.finished", "task.completed"],
      );
      assert.deepEqual(received[0], {
        type: "execution.finished",
        sessionId: null,
        executionId: "e1",
        status: "completed",
      });
      assert.equal(errors.length, 2);
      for (const { error, event } of errors) {
        assert.ok(error instanceof InvalidDomainEventError);
        assert.equal(event, undefined);
      }
    } finally {
      await raw.quit();
      await receiver.close();
      await publisher.close();
    }
  });
});
