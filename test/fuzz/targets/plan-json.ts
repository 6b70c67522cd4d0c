import { readPlan } from '../../../src/plan-json/read-plan.js';
import { planJsonFuzz } from '../plan-json/check-plan.js';

// Fuzz target: the plan reader (readPlan), with the checks of ../plan-json/check-plan.ts on inputs that are JSON
// or, most of the time, bytes that choose edits of a real plan (../plan-json/plan-mutator.ts).
export const fuzz = planJsonFuzz(readPlan);
