import { useId } from 'react';
import type { Calendar } from '@/lib/types';
import { heatmapLayout, WEEKDAYS, WEEKS, XP_LEVELS } from '../heatmap';
import { Icon } from '@/components/Icon';

// The marks take the cell's colour: a text check mark, a drawn snowflake (an emoji would keep its own).
const GOAL_MARK = '✓';
const FROZEN_MARK = <Icon name="snowflake" size={12} />;

/**
 * The last 12 weeks as a table: a row per weekday, a column per week, each cell a day whose
 * colour says its XP, with a mark for a goal met or a frozen day. Screen readers get the table
 * with its headers and each cell's words ("Tue 3 Nov: 40 XP, goal met"); the box scrolls on
 * its own when narrower than the table, and takes focus so it scrolls by keyboard too.
 */
export function ActivityHeatmap({ calendar }: { calendar: Calendar }) {
  const map = heatmapLayout(calendar);
  const captionId = useId();
  const days = WEEKS * 7;
  return (
    <div className="heatmap">
      <p>
        Active on {map.activeDays} of the last {days} days · goal met on {map.goalDays} · {map.frozenDays}{' '}
        {map.frozenDays === 1 ? 'day' : 'days'} frozen.
      </p>
      <div className="heatmap-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="heatmap-table">
          <caption id={captionId} className="visually-hidden">
            Activity in the last {WEEKS} weeks, a row per weekday and a column per week
          </caption>
          <thead>
            <tr>
              <td />
              {map.weeks.map((week) => (
                <th key={week.start} scope="col">
                  <span aria-hidden="true">{week.month}</span>
                  <span className="visually-hidden">{week.label}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {WEEKDAYS.map((weekday, row) => (
              <tr key={weekday}>
                <th scope="row">{weekday}</th>
                {map.weeks.map((week) => {
                  const cell = week.cells[row];
                  if (!cell) return <td key={week.start} className="heat heat-none" />;
                  const classes = ['heat', `heat-${cell.level}`, cell.frozen ? 'heat-frozen' : '', cell.today ? 'heat-today' : ''];
                  return (
                    <td key={week.start} className={classes.filter(Boolean).join(' ')} title={cell.label} data-day={cell.day}>
                      <span aria-hidden="true">{cell.frozen ? FROZEN_MARK : cell.goalMet ? GOAL_MARK : ''}</span>
                      <span className="visually-hidden">{cell.label}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="heatmap-legend" aria-label="Legend">
        <li>
          <span className="heat heat-0" aria-hidden="true" /> No XP
        </li>
        {XP_LEVELS.map((bucket) => (
          <li key={bucket.level}>
            <span className={`heat heat-${bucket.level}`} aria-hidden="true" /> {bucket.label}
          </li>
        ))}
        <li>
          <span className="heat heat-2" aria-hidden="true">
            {GOAL_MARK}
          </span>{' '}
          Goal met
        </li>
        <li>
          <span className="heat heat-frozen" aria-hidden="true">
            {FROZEN_MARK}
          </span>{' '}
          Frozen: a streak freeze covered the day
        </li>
      </ul>
    </div>
  );
}
