// The release of every Vulkan object a context creates, once: by its dispose(), by a
// FinalizationRegistry when its owner is collected, or by the context's dispose(); and the wait for
// the queue that a release makes first.
import { type VK, type VkHandle, check } from './vk.js';

/** Releases what the user forgot to dispose when its owner is collected. */
export const registry = new FinalizationRegistry<() => void>((release) => release());

/** Shared by a context and everything it creates: children release only while the device lives. */
export interface State {
  alive: boolean;
  readonly children: Map<number, () => void>;
  nextId: number;
  /**
   * Submissions made to the queue, and how many of them are known to have finished (a wait covers every earlier one).
   */
  submitted: number;
  completed: number;
  /** Launches queued for one submit (batch.ts): a wait submits them first. */
  batch?: { readonly queued: number; flush(): void; drop(): void };
}

/** A Vulkan object released once, by dispose(), the registry, or its context's dispose(). */
export abstract class VulkanOwned {
  /**
   * Unique within the context, never reused: a recorded launch keys its bindings on it, since a new
   * buffer may get the handle of one freed before it (a descriptor still naming the freed one).
   */
  readonly id: number;
  private readonly state: State;

  constructor(ctx: { readonly state: State }, release: () => void) {
    this.state = ctx.state;
    this.id = this.state.nextId++;
    const state = this.state;
    const id = this.id;
    const once = () => {
      if (!state.children.delete(id) || !state.alive) return;
      release();
    };
    state.children.set(id, once);
    registry.register(this, once, this);
  }

  /** Not yet released. */
  get live(): boolean {
    return this.state.children.has(this.id);
  }

  dispose(): void {
    registry.unregister(this);
    this.state.children.get(this.id)?.();
  }
}

/** Submits the queued launches, and waits for the queue where a submission may still be running. */
export function settle(vk: VK, queue: VkHandle, state: State): void {
  if (!state.alive) return;
  state.batch?.flush();
  if (state.completed === state.submitted) return;
  check(vk.QueueWaitIdle(queue), 'vkQueueWaitIdle');
  state.completed = state.submitted;
}
