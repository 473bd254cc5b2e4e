// Settings as a view over the conversation: a list of sections on the left (tabs in a
// narrow window), one section at a time, each at its own address (#/settings/<id>). The
// bar with "Close settings" stays in view while the section scrolls; Esc closes too. The
// first control takes the focus when Settings opens (and again on Ctrl/⌘+, while open).
import { useEffect, useRef } from 'react';
import type { SettingsView } from '../../shared/settings';
import { SETTINGS_SECTIONS, sectionOf } from './settingsSections';
import { useRequest } from '../navigation/navigation';
import { SETTINGS_VIEW } from '../navigation/requests';
import './settings.css';

export function SettingsPage(props: {
  settings: SettingsView | null;
  section: string | undefined;
  profileId: string | null;
  onSection: (id: string) => void;
  onClose: () => void;
}) {
  const { onClose } = props;
  const section = sectionOf(props.section);
  const page = useRef<HTMLElement>(null);
  const nav = useRef<HTMLElement>(null);
  const scroller = useRef<HTMLDivElement>(null);

  // Opening Settings moves the focus into it; so does Ctrl/⌘+, when it is open already.
  const focusNav = () => nav.current?.querySelector<HTMLElement>('[aria-current="page"]')?.focus();
  useEffect(() => {
    nav.current?.querySelector<HTMLElement>('[aria-current="page"]')?.focus();
  }, []);
  useRequest('focusSettings', SETTINGS_VIEW, focusNav);

  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [section.id]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A dialog over Settings, or a control that used the key (an open list, a rename), goes first.
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
      // Esc in a field outside Settings (the sidebar's search) is that field's.
      const target = event.target;
      if (
        target instanceof HTMLElement &&
        target.matches('input, textarea, select, [contenteditable]') &&
        !page.current?.contains(target)
      )
        return;
      event.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const Section = section.Component;
  return (
    <section ref={page} className="settings-page" aria-label="Settings">
      <nav ref={nav} className="settings-nav" aria-label="Settings sections">
        <h1 className="settings-title">Settings</h1>
        <ul>
          {SETTINGS_SECTIONS.map((s) => (
            <li key={s.id}>
              <a
                href={`#/settings/${s.id}`}
                aria-current={s.id === section.id ? 'page' : undefined}
                onClick={(event) => {
                  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
                  event.preventDefault();
                  props.onSection(s.id);
                }}
              >
                {s.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div ref={scroller} className="settings-scroll">
        <div className="settings-bar">
          <div className="settings-bar-inner">
            <h2>{section.name}</h2>
            <button
              type="button"
              className="settings-close"
              aria-keyshortcuts="Escape"
              title="Close settings (Esc)"
              onClick={onClose}
            >
              Close settings
            </button>
          </div>
        </div>
        <div className="settings-content">
          {props.settings ? (
            <Section settings={props.settings} profileId={props.profileId} />
          ) : (
            <div className="loading" aria-busy="true" />
          )}
        </div>
      </div>
    </section>
  );
}
