// @ts-check
/*
 * The relay of an MCP App's view (src/vscode/apps/appViewPanel.ts). It holds the app's document in
 * a sandboxed iframe (scripts only: no same origin, so the app cannot reach this page, the webview
 * API or the editor) and passes JSON-RPC between that iframe and the extension, where the AppBridge
 * of @modelcontextprotocol/ext-apps runs and every message is validated. This page decides nothing.
 */
(function () {
  const vscode = acquireVsCodeApi();
  /** @type {HTMLIFrameElement | undefined} */
  let frame;

  function theme() {
    /** @type {Record<string, string>} */
    const variables = {};
    const style = document.documentElement.style;
    for (let i = 0; i < style.length; i++) {
      const name = style[i];
      if (name.startsWith('--vscode-')) variables[name] = style.getPropertyValue(name);
    }
    const c = document.body.classList;
    const kind = c.contains('vscode-light') || c.contains('vscode-high-contrast-light') ? 'light' : 'dark';
    return { kind, variables };
  }

  window.addEventListener('message', (event) => {
    if (frame && event.source === frame.contentWindow) {
      vscode.postMessage({ type: 'rpc', message: event.data });
      return;
    }
    // From the extension only: VS Code's webview host posts with this page's own origin (and sets
    // window.parent to window here, so the source cannot be compared). The app's sandboxed document
    // has an opaque origin ("null"), and a frame it opens another origin: neither passes.
    if (event.origin !== window.origin) return;
    const m = event.data;
    if (!m || typeof m.type !== 'string') return;
    if (m.type === 'load') {
      frame?.remove();
      frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts allow-forms');
      if (m.allow) frame.setAttribute('allow', m.allow);
      frame.className = m.prefersBorder ? 'app bordered' : 'app';
      frame.title = 'MCP App view';
      frame.srcdoc = m.html;
      document.getElementById('status')?.remove();
      document.body.appendChild(frame);
    } else if (m.type === 'rpc') {
      frame?.contentWindow?.postMessage(m.message, '*');
    } else if (m.type === 'size' && frame) {
      if (typeof m.height === 'number') frame.style.height = `${Math.max(m.height, 0)}px`;
    }
  });

  new MutationObserver(() => vscode.postMessage({ type: 'theme', theme: theme() })).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  window.addEventListener('resize', () => vscode.postMessage({ type: 'resize', width: window.innerWidth, height: window.innerHeight }));
  vscode.postMessage({ type: 'ready', theme: theme(), width: window.innerWidth, height: window.innerHeight });
})();
