/** What a model failure (a `vscode.LanguageModelError` or any error) looks like to the user. */
export function modelErrorMessage(error: unknown, context: { readonly modelName: string; readonly toolCount: number }): string {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const raw = typeof e?.message === 'string' && e.message ? e.message : String(error);
  const detail = raw.replace(/\s+/g, ' ').trim();
  const model = `The language model "${context.modelName}"`;
  switch (typeof e?.code === 'string' ? e.code : '') {
    case 'NoPermissions':
      return `MCP Host is not allowed to use the language model "${context.modelName}" (${detail}). Allow the extension to use it when asked, or check the language model access settings, then try again.`;
    case 'Blocked':
      return `${model} blocked the request (${detail}). It may be rate-limited or the request was filtered; try again later or pick another model.`;
    case 'NotFound':
      return `${model} is not available (${detail}). Pick another model in the Chat view.`;
  }
  if (context.toolCount > 0 && /\btool/i.test(detail)) {
    return `${model} refused the request with ${context.toolCount} tool${context.toolCount === 1 ? '' : 's'}: ${detail}. It may not support tool calling; pick a model that does.`;
  }
  return `${model} failed: ${detail}`;
}
