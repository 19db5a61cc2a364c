// The checks answered on the server's page before the app arrived: index.html's inline script
// keeps each as `window.lpEarlyAnswers[block id]`, in the shape of its kind's draft (a numeric
// check's text, a choice's ticked option ids, an ordering's item ids as shown), for the app to send.

type EarlyAnswers = Record<string, unknown>;

/** The answer given to check `blockId` before the app ran, once: a second call gets null. */
export function takeEarlyAnswer(blockId: number): { draft: unknown } | null {
  const answers = (window as unknown as { lpEarlyAnswers?: EarlyAnswers }).lpEarlyAnswers;
  const key = String(blockId);
  if (!answers || !(key in answers)) return null;
  const draft = answers[key];
  delete answers[key];
  return { draft };
}
