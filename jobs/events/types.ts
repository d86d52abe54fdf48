// The bus carries store/domain-events.ts: one schema and one typed constructor per event.
export {
  type DomainEvent,
  type DomainEventOf,
  type DomainEventType,
  domainEventSchema,
} from "../../store/domain-events.ts";
