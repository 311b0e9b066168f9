import { describeMeasure } from '../core/agent/toolBudget';
import type { RoleToolMeasure } from './toolBudgetTally';
import type { DetailNode } from './treeNodes';

/** The first row of the Servers view: the active role's tools, their tokens and the budget. */
export function budgetTreeNode(m: RoleToolMeasure): DetailNode {
  const who = m.role ? `Role ${m.role}` : 'No role';
  const tokens = m.tokens !== undefined ? `${m.tokens.toLocaleString('en-US')} tokens` : 'tokens not counted (no chat model)';
  const limit = `${m.budget.maxTools} tools${m.budget.maxToolTokens !== undefined ? `, ${m.budget.maxToolTokens.toLocaleString('en-US')} tokens` : ''}`;
  return {
    kind: 'detail',
    id: 'budget',
    label: `${who}: ${m.tools} tool${m.tools === 1 ? '' : 's'}`,
    description: `${tokens} · ${m.over ? `over budget (${limit})` : `budget ${limit}`}`,
    tooltip: [
      `${who}: ${describeMeasure(m)}.`,
      m.model ? `Tokens of the tool definitions, counted with the tokenizer of ${m.model}.` : '',
      m.over
        ? 'Each request carries the tools most relevant to it and search_tools, through which the model reaches the others (maxTools / maxToolTokens).'
        : 'Every request carries all of them.',
    ]
      .filter(Boolean)
      .join('\n'),
    icon: m.over ? 'warning' : 'dashboard',
  };
}
