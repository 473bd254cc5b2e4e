// Stepwise's own lint rules, run by oxlint as a JS plugin (`jsPlugins` in .oxlintrc.json,
// written by scripts/lintConfig.mjs), for what no built-in rule can say:
// - `stepwise/dispose-subscriptions`: a core module that subscribes hands the subscription
//   to its DisposableStore (the listener followed by the store: `bus.on(event, listener,
//   disposables)`, `chat.onTurnEnd('plans', hook, disposables)`), or passes it on
//   (`store.add(…)`, returned to the caller); a subscription dropped on the floor is never
//   released (docs/architecture.md, "Events and lifecycle").
// - `stepwise/no-untyped-subscribe`: `bus.subscribe` delivers every event untyped; it is
//   for the transports, which forward payloads as they are. A core module follows its
//   events with `bus.on`, typed from the contract.

const FUNCTION = new Set(['ArrowFunctionExpression', 'FunctionExpression']);

/** `bus`, `deps.bus`, `this.bus`: the event bus by its name. */
function isBus(node) {
  if (node.type === 'Identifier') return node.name === 'bus';
  return node.type === 'MemberExpression' && !node.computed && node.property.name === 'bus';
}

function propertyName(callee) {
  return callee.type === 'MemberExpression' && !callee.computed ? callee.property.name : null;
}

/** The call subscribes: `bus.on(…)`, or `x.onSomething(…)` / `emitter.event(…)` given a listener. */
function isSubscription(call) {
  const name = propertyName(call.callee);
  if (!name) return false;
  if (name === 'on') return isBus(call.callee.object);
  if (!/^on[A-Z]/.test(name) && name !== 'event') return false;
  return call.arguments.some((a) => FUNCTION.has(a.type));
}

/** Something after the listener: the store the subscription is added to. */
function passesStore(call) {
  const args = call.arguments;
  if (propertyName(call.callee) === 'on') return args.length >= 3;
  let last = -1;
  args.forEach((a, i) => {
    if (FUNCTION.has(a.type)) last = i;
  });
  return last >= 0 && last < args.length - 1;
}

/** The subscription is handed on: added to a store, or returned to whoever asked for it. */
function handedOn(call) {
  let node = call;
  while (node.parent && (node.parent.type === 'ChainExpression' || node.parent.type === 'TSAsExpression'))
    node = node.parent;
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === 'ReturnStatement') return true;
  if (parent.type === 'ArrowFunctionExpression' && parent.body === node) return true;
  return parent.type === 'CallExpression' && parent.arguments.includes(node) && propertyName(parent.callee) === 'add';
}

const disposeSubscriptions = {
  meta: { type: 'problem', docs: { description: 'Every subscription of a core module is released by its store.' } },
  create(context) {
    /** `const x = new DisposableStore()` by name, and whether `x.dispose()` is called. */
    const stores = new Map();
    return {
      NewExpression(node) {
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'DisposableStore') return;
        const parent = node.parent;
        if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier')
          stores.set(parent.id.name, { node: parent, disposed: stores.get(parent.id.name)?.disposed ?? false });
      },
      'Program:exit'() {
        for (const [name, { node, disposed }] of stores) {
          if (disposed) continue;
          context.report({
            node,
            message: `The store ${name} is never disposed: call ${name}.dispose() in the module's dispose(), or add it to another store.`,
          });
        }
      },
      CallExpression(call) {
        const callee = call.callee;
        if (propertyName(callee) === 'dispose' && callee.object.type === 'Identifier') {
          const store = stores.get(callee.object.name);
          if (store) store.disposed = true;
          else stores.set(callee.object.name, { node: call, disposed: true });
        }
        if (!isSubscription(call) || passesStore(call) || handedOn(call)) return;
        context.report({
          node: call,
          message:
            "Subscribed without disposing: pass the module's DisposableStore after the listener (bus.on(event, listener, disposables)) so the module's dispose() releases it, or add the subscription to a store.",
        });
      },
    };
  },
};

const noUntypedSubscribe = {
  meta: { type: 'problem', docs: { description: 'Core modules follow typed events, never every event.' } },
  create(context) {
    return {
      CallExpression(call) {
        if (propertyName(call.callee) !== 'subscribe') return;
        context.report({
          node: call,
          message:
            "subscribe( is for the transports (every event, untyped): a core module follows its events with bus.on('event', listener, disposables), typed from the contract.",
        });
      },
    };
  },
};

export default {
  meta: { name: 'stepwise' },
  rules: {
    'dispose-subscriptions': disposeSubscriptions,
    'no-untyped-subscribe': noUntypedSubscribe,
  },
};
