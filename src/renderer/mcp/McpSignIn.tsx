// A remote server's sign-in on its card: Sign in when it answered 401, the page to open
// while the browser is out, the reason and a retry when it failed, Sign out once signed in.
// The page opens through window.open: the desktop app hands it to the system browser, the
// browser host opens a new tab.
import type { McpServerView, McpState } from '../../shared/mcp';

export function openSignInPage(url: string) {
  window.open(url, '_blank', 'noopener,noreferrer');
}

export function McpSignIn(props: {
  server: McpServerView;
  run: (action: () => Promise<McpState | undefined>) => void;
  signIn: () => Promise<{ state: McpState; authorizationUrl: string | null }>;
  signOut: () => Promise<McpState>;
}) {
  const { server, run } = props;
  if (server.transport === 'stdio' || !server.enabled || server.signIn === 'none') return null;
  const start = () =>
    run(async () => {
      const { state, authorizationUrl } = await props.signIn();
      if (authorizationUrl) openSignInPage(authorizationUrl);
      return state;
    });
  return (
    <div className="mcp-sign-in" aria-label={`Sign-in to ${server.name}`} role="group">
      {server.signIn === 'needed' && (
        <button type="button" className="primary" onClick={start} aria-label={`Sign in to ${server.name}`}>
          Sign in
        </button>
      )}
      {server.signIn === 'waiting' && (
        <>
          <p role="status">Finish signing in in your browser; Stepwise waits up to 2 minutes.</p>
          {server.signInUrl && (
            <a href={server.signInUrl} target="_blank" rel="noopener noreferrer">
              Open the sign-in page again
            </a>
          )}
          <button type="button" onClick={start} aria-label={`Start signing in to ${server.name} again`}>
            Start again
          </button>
        </>
      )}
      {server.signIn === 'failed' && (
        <>
          <p className="mcp-sign-in-error" role="alert">
            {server.signInError}
          </p>
          <button
            type="button"
            className="primary"
            onClick={start}
            aria-label={`Try signing in to ${server.name} again`}
          >
            Try again
          </button>
        </>
      )}
      {server.signIn === 'signedIn' && (
        <>
          <span className="mcp-badge">signed in</span>
          <button type="button" onClick={() => run(props.signOut)} aria-label={`Sign out of ${server.name}`}>
            Sign out
          </button>
        </>
      )}
    </div>
  );
}
