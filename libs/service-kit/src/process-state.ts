/** What the process is doing, for its health answers: a draining process is alive but not ready. */
export const processState = {
  /** Set at SIGTERM: readiness answers 503 from then on, while requests are still served. */
  draining: false,
};
