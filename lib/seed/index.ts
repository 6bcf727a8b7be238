/**
 * The demo study (slug "demo"): seeded on the product's first start and by the `seed-demo`
 * CLI command. Demo annotator accounts: ann1@demo.local ("Annotator One") and ann2@demo.local
 * ("Annotator Two"), both with the password "demo-annotator". Seeded by lib/data/demo-study.ts seedDemo.
 */

export { DEMO_STUDY } from "./demo";
export { planDemo, TASK_ORDER } from "./plan";
export type { DemoPlan, PlannedAnnotation, PlannedAssignment } from "./plan";
export { writeDemoStudy } from "./write";
export type * from "./types";
