// The checks answered on the server's page before the app arrived: index.html's inline script
// keeps each as `window.lpEarlyAnswers[block id]`: the draft, in the shape of its kind's draft (a
// numeric check's text, a choice's ticked option ids, an ordering's item ids as shown), and, when
// the answer was complete, the server's reply to the answer it sent, for the app to take over.

export interface EarlyAnswer {
  draft: unknown;
  /** The reply to POST /checks/{id}/answers, sent by the inline script (absent: nothing sent). */
  sent?: Promise<Response>;
}

type EarlyAnswers = Record<string, EarlyAnswer>;

/** The answer given to check `blockId` before the app ran, once: a second call gets null. */
export function takeEarlyAnswer(blockId: number): EarlyAnswer | null {
  const answers = (window as unknown as { lpEarlyAnswers?: EarlyAnswers }).lpEarlyAnswers;
  const key = String(blockId);
  if (!answers || !(key in answers)) return null;
  const early = answers[key];
  delete answers[key];
  return early;
}
