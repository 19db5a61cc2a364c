// Shapes of the /api/v1 answers this app reads (see /api/schema/).

export interface Level {
  number: number;
  name: string;
}
export interface LevelStep extends Level {
  xp_required: number;
}
export interface LevelCurve {
  count: number;
  results: LevelStep[];
}

export interface ProgressSummary {
  quest: string;
  level: Level;
  xp: number;
  xp_into_level: number;
  xp_for_level: number;
  xp_to_go: number;
  next_level: LevelStep | null;
  lessons_completed: number;
  lessons_total: number;
  percent_complete: number;
  achievements_unlocked: number;
  achievements_total: number;
  streak: { current: number; best: number };
  completed_lessons: string[];
}

export interface NewAchievement {
  slug: string;
  title: string;
  xp_bonus: number;
}

export interface CompletionOutput {
  lesson: string;
  completed_at: string;
  xp_awarded: number;
  xp: number;
  level_before: Level;
  level_after: Level;
  level_up: boolean;
  new_achievements: NewAchievement[];
}

export type SyncRejectReason = 'malformed' | 'future_time' | 'too_old' | 'unknown_lesson' | 'draft_lesson';

export interface SyncResult extends ProgressSummary {
  rejected: { id: string | null; reason: SyncRejectReason; detail: string }[];
  cursor: string;
  changes: { lesson: string; completed_at: string; device_id: string }[];
  new_achievements: NewAchievement[];
}

export interface Paginated<T> {
  count: number;
  next?: string | null;
  previous?: string | null;
  results: T[];
}

export interface QuestRef {
  slug: string;
  title: string;
}
export interface QuestListItem extends QuestRef {
  description: string;
}
export interface OutlineLesson {
  slug: string;
  title: string;
  estimated_minutes: number;
  xp: number;
  tags: string[];
  published: boolean;
  completed: boolean | null;
}
export interface QuestDetail extends QuestListItem {
  lesson_count: number;
  /** The signed-in learner's; null when anonymous. */
  lessons_completed?: number | null;
  percent_complete?: number | null;
  lessons: OutlineLesson[];
}

export interface ProseBlock {
  id: number;
  kind: 'prose';
  markdown: string;
  html: string;
}
export interface CalloutBlock {
  id: number;
  kind: 'callout';
  markdown: string;
  html: string;
  style: 'note' | 'tip' | 'warning';
}
export interface TableBlock {
  id: number;
  kind: 'table';
  caption: string;
  columns: string[];
  rows: string[][];
}
export interface CodeBlock {
  id: number;
  kind: 'code';
  title: string;
  language: string;
  source: string;
}
export type Block = ProseBlock | CalloutBlock | TableBlock | CodeBlock;

export interface LessonDetail {
  slug: string;
  title: string;
  summary: string;
  estimated_minutes: number;
  xp: number;
  tags: string[];
  quest: QuestRef;
  position: number;
  published: boolean;
  updated_at: string;
  blocks: Block[];
  links: { title: string; url: string }[];
  exercise: { id: number; title: string; kind: string; xp: number } | null;
  comment_count: number;
  previous: QuestRef | null;
  next: QuestRef | null;
}

export interface ExerciseColumn {
  name: string;
  field: string;
  synonyms: string[];
}
export interface ExerciseDetail {
  id: number;
  slug: string;
  lesson: string;
  title: string;
  kind?: 'table';
  prompt: string;
  prompt_html: string;
  key_column: { name: string; synonyms: string[] };
  columns: ExerciseColumn[];
  rows_required?: number;
  pass_mark: number;
  xp?: number;
  passed: boolean | null;
  known_models: string[];
}

export type SubmissionFormat = 'csv' | 'tsv' | 'markdown' | 'json';
export type SubmissionStatus = 'queued' | 'grading' | 'graded' | 'invalid';
export type Verdict = 'correct' | 'incorrect' | 'missing' | 'unparseable' | 'unchecked';

export interface CellFeedback {
  column: string;
  submitted: string;
  verdict: Verdict;
  expected: number | string | null;
}
export interface RowFeedback {
  row: number;
  name: string;
  model: string | null;
  duplicate: boolean;
  cells: CellFeedback[];
}
export interface Feedback {
  key_header: string | null;
  columns: { name: string; headers: string[] }[];
  correct: number;
  checked: number;
  models_recognised: number;
  rows: RowFeedback[];
}
export interface SubmissionAccepted {
  id: number;
  exercise: number;
  status: SubmissionStatus;
  created_at: string;
  url?: string;
}
export interface SubmissionDetail {
  id: number;
  exercise: number;
  format: SubmissionFormat;
  status?: SubmissionStatus;
  score?: number | null;
  passed?: boolean;
  xp_awarded?: number;
  summary?: string;
  created_at: string;
  graded_at?: string | null;
  content: string;
  notes?: string;
  feedback: Feedback | null;
}

export interface CommentAuthor {
  id: number;
  name: string;
}
export interface Comment {
  id: number;
  lesson: string;
  parent: number | null;
  reply_to: { id: number; author: string } | null;
  author: CommentAuthor | null;
  body: string;
  body_html: string;
  is_deleted: boolean;
  is_edited: boolean;
  is_author: boolean;
  created_at: string;
  edited_at: string | null;
}
export interface Thread extends Comment {
  reply_count: number;
  replies: Comment[];
  replies_url: string;
}
export interface Subscription {
  lesson: string;
  following: boolean;
  explicit: boolean | null;
}

export type ReportKind = 'typo' | 'incorrect' | 'broken_link' | 'unclear' | 'other';
export interface ReportInput {
  kind: ReportKind;
  message: string;
  block?: number | null;
  contact_email?: string;
}

export interface Notification {
  id: number;
  kind: string;
  title: string;
  body: string;
  url: string;
  created_at: string;
  read_at: string | null;
  is_read: boolean;
}
export interface NotificationPage extends Paginated<Notification> {
  unread_count: number;
}

export interface Achievement {
  slug: string;
  title: string;
  description: string;
  icon: string;
  xp_bonus: number;
  rule: { kind: string; summary: string; threshold: number | null; tag: string | null; quest: string | null };
  unlocked: boolean;
  unlocked_at: string | null;
  progress: { current: number; target: number } | null;
}
export interface AchievementList {
  count: number;
  unlocked_count: number;
  results: Achievement[];
}

export type LeaderboardPeriod = 'week' | 'month' | 'all';
export interface LeaderboardOutput {
  period: LeaderboardPeriod;
  since: string | null;
  entries: { rank: number; user_id: number; display_name: string; xp: number; is_me: boolean }[];
  me: { rank: number; xp: number; on_leaderboard: boolean } | null;
}

export interface Profile {
  id: number;
  email: string;
  display_name: string;
  time_zone: string;
  reply_notifications: boolean;
  email_notifications: boolean;
  show_on_leaderboard: boolean;
  date_joined: string;
}
