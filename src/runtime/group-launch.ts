// How a tinytc launch lays out its work-groups. tinytc v0.3 launches `howmany` work-groups along the
// third axis (its group_id is the batch index); v0.4 names three axes (group_id.x/.y/.z,
// num_groups.x/.y/.z) and launches num_groups[i] × local[i] work-items along axis i (tinytc's
// tinytc_cl_get_global_size), so its `howmany` is a count along x or the three counts.
import { LaunchError } from '../pack/errors.js';

/** `batch`: v0.3's groups along the third axis; `axes`: v0.4's groups along x, y and z. */
export type GroupLaunch = 'batch' | 'axes';

/** A launch's work-group count: one number, or (v0.4) the counts along x, y and z (missing ones are 1). */
export type Howmany = number | readonly number[];

/** The language version's layout. */
export const groupLaunchOf = (version: '0.3' | '0.4' | undefined): GroupLaunch =>
  version === '0.4' ? 'axes' : 'batch';

/**
 * The global size of a launch and the work-group count along the axis group members are indexed by
 * (the batch axis of v0.3, x of v0.4), after checking `howmany`.
 */
export function groupLaunch(
  kernel: string,
  local: readonly [number, number, number],
  howmany: Howmany | undefined,
  layout: GroupLaunch,
): { global: [number, number, number]; count: number } {
  const given = howmany ?? 1;
  const counts = typeof given === 'number' ? [given] : Array.isArray(given) ? [...given] : [NaN];
  const bad = counts.length === 0 || counts.length > 3 || counts.some((n) => !Number.isSafeInteger(n) || n < 1);
  if (layout === 'batch' && (typeof given !== 'number' || bad))
    throw new LaunchError(kernel, `howmany must be a positive integer, not ${String(given)}`);
  if (bad)
    throw new LaunchError(
      kernel,
      `howmany must be a positive integer or up to three (work-groups along x, y, z), not ${JSON.stringify(given)}`,
    );
  if (layout === 'batch') return { global: [local[0], local[1], local[2] * counts[0]], count: counts[0] };
  const [x, y = 1, z = 1] = counts;
  return { global: [local[0] * x, local[1] * y, local[2] * z], count: x };
}
