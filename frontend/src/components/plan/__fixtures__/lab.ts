// GET /api/v1/lab as the backend answers it: the registered actions are lab-actions.json, written from the registry by
// scripts/frontend_fixtures.py (as on a 2-CPU machine) and checked by tests/unit/test_frontend_fixtures.py.
import type { LabState } from "../../../api/types";
import raw from "../../../tools/__fixtures__/lab-actions.json";
import type { LabAction } from "../planModel";

/** Every registered lab action, as the API lists them. */
export const LAB_ACTIONS = raw as LabAction[];

/** One action of the fixture by name (throws when it is not there, so a renamed action fails loudly). */
export function labAction(name: string): LabAction {
  const a = LAB_ACTIONS.find((x) => x.name === name);
  if (!a) throw new Error(`no lab action ${name} in the fixture`);
  return a;
}

/** GET /api/v1/lab's answer on a machine whose lab is down: the actions are listed all the same. */
export const LAB_STATE: LabState = { present: false, reason: "the lab needs root", queues: null, services: [], cpu_count: 2, actions: LAB_ACTIONS };
