/** The job queue (pg-boss): its queues, starting it, enqueueing, working a queue, and the events of finished jobs. */
export { IMPORT_QUEUE, jobIdOf, JUDGE_QUEUE, MATCHER_QUEUE, METRIC_QUEUE, PARTICIPANT_RELEASE_QUEUE, PSEUDO_REFERENCE_QUEUE, replaceJobs, REPORT_QUEUE, sendQueue, startQueue, STATIC_ANALYSIS_QUEUE, WEBHOOK_QUEUE } from "./queue";
export { workQueue } from "./work";
export { jobDone, onJobDone } from "./events";
