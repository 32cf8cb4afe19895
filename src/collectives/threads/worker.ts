/**
 * A worker thread's entry (pool.ts): its workerData gives the port answers go to and the counter
 * raised after each answer; every message is a task, done and answered in order.
 */
import { parentPort, workerData } from "node:worker_threads";
import { letGoOfArenas } from "../../numerics/let-go.js";
import { answered, beatInto } from "./pool.js";
import { doTask, type WorkerTask } from "./tasks.js";

const { port, flag } = workerData as {
  readonly port: { postMessage(message: unknown): void };
  readonly flag: Int32Array;
};
beatInto(flag);

parentPort?.on("message", (message: unknown) => {
  let answer: unknown;
  try {
    answer = { value: doTask(message as WorkerTask) };
  } catch (e) {
    answer = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  // The arenas the task adopted are the calling thread's to free: keep none at hand.
  letGoOfArenas();
  port.postMessage(answer);
  answered(flag);
});
