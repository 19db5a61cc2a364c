// The API's shapes under the names the app uses. All come from api-schema.d.ts, which
// openapi-typescript generates from the server's OpenAPI schema (`scripts/web.sh types`, run by
// `make web`; `make web-types-check` fails when it is out of date): none is written by hand.
import type { components, operations } from './api-schema';

type Schemas = components['schemas'];

export type ApiErrorBody = Schemas['Error'];
export type SessionState = Schemas['SessionState'];
export type Profile = Schemas['ProfileOutput'];
export type ProfileInput = Schemas['PatchedProfileInputRequest'];
export type DeletionInput = Schemas['DeletionInputRequest'];
/** A daily goal the server accepts, in XP. */
export type GoalXp = Schemas['XpEnum'];
export type AccountDeletion = Schemas['DeletionOutput'];
export type DeletionTerms = Schemas['DeletionTerms'];

export type Level = Schemas['Level'];
export type LevelStep = Schemas['LevelStep'];
export type NextLevel = Schemas['NextLevel'];
export type LevelCurve = Schemas['LevelCurve'];
export type ProgressSummary = Schemas['ProgressSummary'];
export type CompletionOutput = Schemas['CompletionOutput'];
export type Calendar = Schemas['Calendar'];
export type CalendarDay = Schemas['CalendarDay'];
export type Streak = Schemas['Streak'];
export type DailyGoal = Schemas['DailyGoal'];
export type LessonCompletedEvent = Schemas['SyncEventRequest'];
export type SyncInput = Schemas['SyncInputRequest'];
export type SyncResult = Schemas['SyncResult'];
export type DailyGoalInput = Schemas['DailyGoalInputRequest'];

export type QuestPage = Schemas['PaginatedQuestListList'];
export type QuestDetail = Schemas['QuestDetail'];
export type OutlineLesson = Schemas['OutlineLesson'];
export type LessonDetail = Schemas['LessonDetail'];
export type Block = Schemas['Block'];
export type CodeBlock = Schemas['CodeBlock'];
export type CheckBlock = Schemas['CheckBlock'];
export type Check = Schemas['Check'];
export type CheckOption = Schemas['CheckOption'];
export type CheckType = Schemas['CheckTypeEnum'];
export type CheckResult = Schemas['CheckResult'];
export type CheckMark = Schemas['CheckMark'];
export type CheckReveal = Schemas['CheckReveal'];
export type CheckStanding = Schemas['CheckStanding'];
export type LessonCheckStandings = Schemas['LessonCheckStandings'];
export type StartedLessons = Schemas['StartedLessons'];
export type SyncAnswer = Schemas['SyncAnswerRequest'];
export type SyncAnswersInput = Schemas['SyncAnswersInputRequest'];
export type SyncAnswersResult = Schemas['SyncAnswersResult'];

export type ReviewQueue = Schemas['ReviewQueue'];
export type ReviewCard = Schemas['ReviewCard'];
export type ReviewSummary = Schemas['ReviewSummary'];
export type ReviewAnswerInput = Schemas['ReviewAnswerInputRequest'];
export type ReviewResult = Schemas['ReviewResult'];
export type SyncReview = Schemas['SyncReviewRequest'];
export type SyncReviewsInput = Schemas['SyncReviewsInputRequest'];
export type SyncReviewsResult = Schemas['SyncReviewsResult'];

export type ExerciseDetail = Schemas['ExerciseDetail'];
export type SubmissionFormat = Schemas['FormatEnum'];
export type SubmissionInput = Schemas['SubmissionInputRequest'];
export type SubmissionAccepted = Schemas['SubmissionAccepted'];
export type SubmissionDetail = Schemas['SubmissionDetail'];
export type SubmissionListItem = Schemas['SubmissionListItem'];
export type SubmissionPage = Schemas['PaginatedSubmissionListItemList'];
export type CellFeedback = Schemas['CellFeedback'];
export type Feedback = Schemas['Feedback'];
export type Verdict = Schemas['VerdictEnum'];

export type Comment = Schemas['Comment'];
export type CommentInput = Schemas['CommentInputRequest'];
export type CommentPage = Schemas['PaginatedCommentList'];
export type Thread = Schemas['Thread'];
export type ThreadPage = Schemas['PaginatedThreadList'];
export type Subscription = Schemas['Subscription'];

export type ReportInput = Schemas['ReportInputRequest'];
export type ReportKind = Schemas['IssueReportKindEnum'];
export type Report = Schemas['Report'];
export type ReportPage = Schemas['PaginatedReportList'];
export type ReportStatus = Schemas['IssueReportStatusEnum'];

export type NotificationPage = Schemas['PaginatedNotificationList'];
export type ReadAll = Schemas['ReadAll'];

export type AchievementList = Schemas['AchievementListOutput'];
export type LeaderboardOutput = Schemas['LeaderboardOutput'];
export type MyLeague = Schemas['MyLeague'];
export type LeagueMember = Schemas['LeagueMember'];
export type LeagueResult = Schemas['LeagueResult'];
export type LeaderboardPeriod = NonNullable<NonNullable<operations['leaderboard_retrieve']['parameters']['query']>['period']>;
