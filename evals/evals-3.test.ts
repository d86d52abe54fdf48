import { describeFastShard } from "./fast-subset.ts";

await describeFastShard(2);
