// The arguments form of a server prompt ("/") or the variables form of a resource template
// ("@"), with the server's suggestions where it offers them (`completion/complete`).
import { lazy, Suspense } from 'react';
import type { McpCompleteRequest } from '../../shared/mcpCatalog';
import { call, useApi } from '../api/apiContext';
import type { ArgumentField } from './McpArgumentsForm';

// A server prompt or template with arguments is rare: its form loads with the first one.
const McpArgumentsForm = lazy(() => import('./McpArgumentsForm').then((m) => ({ default: m.McpArgumentsForm })));

export function ServerArgumentsForm(props: {
  /** The prompt or template being filled in. */
  item: { server: string; name: string; title: string | null; description: string | null; completes: boolean };
  /** What the server completes the arguments of. */
  completing: McpCompleteRequest['ref'];
  fields: ArgumentField[];
  submitLabel: string;
  onSubmit: (values: Record<string, string>) => Promise<void>;
  onCancel: () => void;
}) {
  const api = useApi();
  const { item } = props;
  return (
    <Suspense fallback={null}>
      <McpArgumentsForm
        title={item.title ?? item.name}
        server={item.server}
        description={item.description}
        fields={props.fields}
        submitLabel={props.submitLabel}
        complete={
          item.completes
            ? async (field, value, values) =>
                (
                  await call(api, 'mcp:complete', {
                    server: item.server,
                    ref: props.completing,
                    argument: { name: field, value },
                    context: Object.fromEntries(Object.entries(values).filter(([k]) => k !== field)),
                  })
                ).values
            : undefined
        }
        onSubmit={props.onSubmit}
        onCancel={props.onCancel}
      />
    </Suspense>
  );
}
