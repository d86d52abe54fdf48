// The scripted OpenAI-compatible model lives in demo/scripted-model/ (`oikos demo` replays its
// recorded incident with it, so it ships with the app); tests keep importing it from here.
export * from "../../demo/scripted-model/index.ts";
