// Every parameter of the scenario as a control, grouped as the scenario is: the run, each
// host's stack, each link (its random faults too), each application. A change re-runs at
// once; changed values are marked and can be reset; the URL keeps them.
import type { ReactNode } from 'react';
import { applyDefaults } from '../../core/scenarios/defaults.ts';
import type { Scenario } from '../../core/scenarios/types.ts';
import { LinkFaults } from './LinkFaults.tsx';
import { ParamControl } from './ParamControl.tsx';
import { defForType, fieldsOf, topFields, type FieldSpec } from '../common/schema_fields.ts';
import { resetParam, setParam, useApp, withSetsOrBase } from '../common/store.ts';

const LINK_SKIP = ['name', 'type', 'a', 'b', 'faults'];
const APP_SKIP = ['type', 'host', 'to', 'rounds'];

function Group(props: {
  title: string;
  path: string;
  fields: FieldSpec[];
  values: Record<string, unknown>;
  sets: string[];
  open?: boolean;
  children?: ReactNode;
}) {
  const { title, path, fields, values, sets, open, children } = props;
  return (
    <details className="param-group" open={open}>
      <summary>{title}</summary>
      <div className="param-grid">
        {fields.map((f) => {
          const p = path ? `${path}.${f.key}` : f.key;
          const whole = values[f.key];
          const v = Array.isArray(whole) ? (whole as unknown[])[f.index ?? 0] : whole;
          // A pair is set whole, the other end's value kept.
          const set = (x: unknown) => setParam(p, f.index === undefined ? x : (whole as unknown[]).map((e, i) => (i === f.index ? x : e)));
          return (
            <ParamControl
              key={`${p}.${f.index ?? ''}`}
              spec={f}
              value={v}
              changed={sets.some((a) => a.startsWith(`${p}=`))}
              onChange={set}
              onReset={() => resetParam(p)}
            />
          );
        })}
      </div>
      {children}
    </details>
  );
}

function faultsOf(s: Scenario, link: string) {
  return s.links.find((l) => l.name === link)?.faults;
}

export function ParamsPanel() {
  const base = useApp((s) => s.base);
  const sets = useApp((s) => s.sets);
  const scenario: Scenario = withSetsOrBase(base, sets);
  const full = applyDefaults(scenario);
  const stack = fieldsOf('stack').filter((f) => f.key !== 'tcp_nfc');
  return (
    <section className="params" aria-label="Parameters">
      <Group title="Run" path="" fields={topFields()} values={full as unknown as Record<string, unknown>} sets={sets} open />
      {full.hosts.map((h) => (
        <Group
          key={h.name}
          title={`Host ${h.name} (${h.addr}): stack`}
          path={`hosts.${h.name}.stack`}
          fields={stack}
          values={h.stack as Record<string, unknown>}
          sets={sets}
        />
      ))}
      {full.bridges.map((b) => (
        <Group
          key={b.name}
          title={`Bridge ${b.name}`}
          path={`bridges.${b.name}`}
          fields={fieldsOf('bridge', ['name'])}
          values={b as unknown as Record<string, unknown>}
          sets={sets}
        />
      ))}
      {full.links.map((l) => (
        <Group
          key={l.name}
          title={`Link ${l.name} (${l.type})`}
          path={`links.${l.name}`}
          fields={fieldsOf(defForType('link', l.type), LINK_SKIP)}
          values={l as unknown as Record<string, unknown>}
          sets={sets}
        >
          {/* As written, not with defaults: the entries it keeps go back as they were. */}
          <LinkFaults link={l.name} ends={[l.a, 'b' in l ? l.b : 'serial port']} faults={faultsOf(scenario, l.name)} baseFaults={faultsOf(base, l.name)} />
        </Group>
      ))}
      {full.apps.map((a, i) => (
        <Group
          key={i}
          title={`App ${i}: ${a.type} on ${a.host}${'to' in a ? ` → ${a.to}` : ''}`}
          path={`apps.${i}`}
          fields={fieldsOf(defForType('app', a.type), APP_SKIP)}
          values={a as unknown as Record<string, unknown>}
          sets={sets}
        />
      ))}
    </section>
  );
}
