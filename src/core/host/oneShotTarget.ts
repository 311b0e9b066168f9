import { schemaProblem } from '../tools/jsonSchemaCompilers';
import type { ToolPins } from '../pinning/toolPins';
import type { PolicySet } from '../policy/activePolicies';
import type { HostSettings } from '../settings/hostSettings';
import { sanitizeNamePart, serverPrefix } from '../settings/serverPrefix';
import { MAX_TOOL_NAME, PREFIX_SEPARATOR } from '../tools/toolNaming';

/** Every name the registry makes up (a shortened name, a disambiguated one) ends in a hash like this. */
const MADE_UP = /_[0-9a-f]{6}$/;

/**
 * The server and tool an exposed name can only mean, whatever any server lists, or undefined when
 * that takes every server's tool list (then a one-shot call discovers everything, as a session does).
 *
 * In "prefix" mode the registry gives `<server>__<tool>` to the tool whose own name is exactly
 * `<tool>` when both parts are valid model names: such an exact name always wins a collision
 * (toolNaming/assignToolNames), and only a made-up name (ending in a hash) could meet it. So when
 * exactly one configured server's prefix starts the name, and the name is valid, not longer than
 * the limit and not hash-shaped, the name means that server's tool `<tool>` — or nothing, if the
 * server does not list it — and no other server's or tool's presence can change that. In "reject"
 * mode the owner of a bare name depends on every earlier server's list: no shortcut.
 *
 * Role and quarantine are not decided here: the call goes through the router as always.
 */
export function oneShotTarget(name: string, settings: HostSettings, policy: PolicySet): { server: string; tool: string } | undefined {
  if (settings.toolNames !== 'prefix' || name.length > MAX_TOOL_NAME || MADE_UP.test(name)) return undefined;
  const matches = settings.servers.filter((s) => name.startsWith(serverPrefix(s.name) + PREFIX_SEPARATOR));
  if (matches.length !== 1) return undefined;
  const server = matches[0];
  const tool = name.slice(serverPrefix(server.name).length + PREFIX_SEPARATOR.length);
  if (serverPrefix(server.name) !== server.name || tool === '' || sanitizeNamePart(tool) !== tool) return undefined;
  if (!server.enabled || !policy.usesServer(server.name)) return undefined;
  return { server: server.name, tool };
}

/**
 * The target of a one-shot call (oneShotTarget), prepared before its server starts: its listing
 * will stop at the tool and keep only it (ToolPins.listsPartially), and the work that checking that
 * one definition needs first is done while the server starts rather than after it answers — the
 * tool's pin is read from the lockfile, and the JSON Schema meta-schema is compiled (~40 ms on the
 * first definition checked). Undefined (nothing prepared) when the name needs every server's tools.
 */
export function prepareOneShot(name: string, settings: HostSettings, policy: PolicySet, pins: ToolPins): { server: string; tool: string } | undefined {
  const target = oneShotTarget(name, settings, policy);
  if (!target) return undefined;
  pins.listsPartially(target.server, target.tool);
  setImmediate(() => schemaProblem({ type: 'object' })).unref();
  return target;
}
