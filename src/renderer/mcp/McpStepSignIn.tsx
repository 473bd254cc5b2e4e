// Sign in on a tool step whose server wanted the user to sign in: the same controls as the
// server's card in Settings (Sign in, the page to open again, the reason and Try again).
import { useEffect, useState } from 'react';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { McpSignIn } from './McpSignIn';
import { useMcp } from './useMcp';
import './mcp.css';

export function McpStepSignIn({ conversationId, toolCallId }: { conversationId: string; toolCallId: string }) {
  const api = useApi();
  const [server, setServer] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    call(api, 'mcp:stepSignIn', { conversationId, toolCallId }).then(
      (value) => current && setServer(value?.server ?? null),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, conversationId, toolCallId]);
  return server ? <ServerSignIn name={server} /> : null;
}

function ServerSignIn({ name }: { name: string }) {
  const api = useApi();
  const guard = useGuard();
  const [state, setState] = useMcp();
  const server = state?.servers.find((s) => s.name === name);
  if (!server) return null;
  return (
    <div className="mcp-step-sign-in">
      <McpSignIn
        // The server may have reconnected since (it answers everything but this call without a
        // sign-in), so its card forgot the refusal: the step still knows a sign-in is wanted.
        server={server.signIn === 'none' ? { ...server, signIn: 'needed' } : server}
        run={(action) =>
          void guard(action).then((next) => {
            if (next) setState(next);
          })
        }
        signIn={() => call(api, 'mcp:signIn', { name })}
        signOut={() => call(api, 'mcp:signOut', { name })}
      />
    </div>
  );
}
