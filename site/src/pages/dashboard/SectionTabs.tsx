import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import '../../styles/manage.css';

export interface Section {
  /** The section's name in the address (`?section=media`). */
  id: string;
  label: string;
  content: ReactNode;
}

/** The search parameter that names the open section, so a reload or a shared link opens the same one. */
export const SECTION_PARAMETER = 'section';

/**
 * Sections as accessible tabs (WAI-ARIA tabs pattern: arrow keys, Home and End move between the tabs and open
 * them). The open section is in the address; the first one is the default and leaves the address bare. A
 * section, once opened, stays mounted (hidden) so that what was typed there survives a look at another.
 */
export function SectionTabs({ label, sections }: { label: string; sections: readonly Section[] }) {
  const prefix = useId();
  const [params, setParams] = useSearchParams();
  const requested = params.get(SECTION_PARAMETER);
  const active = sections.find((section) => section.id === requested) ?? sections[0];
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set());
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  if (!active) return null;
  if (!visited.has(active.id)) setVisited(new Set([...visited, active.id]));

  function open(id: string) {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (id === sections[0]?.id) next.delete(SECTION_PARAMETER);
        else next.set(SECTION_PARAMETER, id);
        return next;
      },
      { replace: true },
    );
  }

  function onKeyDown(event: KeyboardEvent) {
    const index = sections.indexOf(active!);
    const target =
      event.key === 'ArrowRight'
        ? sections[(index + 1) % sections.length]
        : event.key === 'ArrowLeft'
          ? sections[(index - 1 + sections.length) % sections.length]
          : event.key === 'Home'
            ? sections[0]
            : event.key === 'End'
              ? sections[sections.length - 1]
              : undefined;
    if (!target) return;
    event.preventDefault();
    open(target.id);
    tabs.current.get(target.id)?.focus();
  }

  return (
    <div className="site-section-tabs">
      <div className="site-section-tabs__list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {sections.map((section) => {
          const selected = section.id === active.id;
          return (
            <button
              key={section.id}
              ref={(element) => {
                if (element) tabs.current.set(section.id, element);
                else tabs.current.delete(section.id);
              }}
              type="button"
              role="tab"
              id={`${prefix}-tab-${section.id}`}
              aria-selected={selected}
              aria-controls={
                selected || visited.has(section.id) ? `${prefix}-panel-${section.id}` : undefined
              }
              tabIndex={selected ? 0 : -1}
              className="site-section-tabs__tab"
              onClick={() => open(section.id)}
            >
              {section.label}
            </button>
          );
        })}
      </div>
      {sections
        .filter((section) => section.id === active.id || visited.has(section.id))
        .map((section) => (
          <div
            key={section.id}
            role="tabpanel"
            id={`${prefix}-panel-${section.id}`}
            aria-labelledby={`${prefix}-tab-${section.id}`}
            hidden={section.id !== active.id}
            className="site-section-tabs__panel"
          >
            {section.content}
          </div>
        ))}
    </div>
  );
}
