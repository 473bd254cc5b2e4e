// A small accessible menu button: role=menu, arrow keys, Esc, click-away. The menu is
// rendered in a portal with fixed positioning, so no scrolling list, virtual row or
// stacking context can clip it or paint over it.
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './Menu.css';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
}

interface Placement {
  top: number;
  left: number;
}

const GAP = 4;

function place(button: HTMLElement, menu: HTMLElement): Placement {
  const anchor = button.getBoundingClientRect();
  const { offsetWidth: width, offsetHeight: height } = menu;
  const below = anchor.bottom + GAP;
  const top = below + height > window.innerHeight && anchor.top - GAP - height > 0 ? anchor.top - GAP - height : below;
  const left = Math.min(Math.max(GAP, anchor.right - width), window.innerWidth - width - GAP);
  return { top, left };
}

export function MenuButton(props: { label: string; items: MenuItem[]; children: ReactNode; className?: string }) {
  const [open, setOpen] = useState(false);
  const [placement, setPlacement] = useState<Placement | null>(null);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    if (!open || !buttonRef.current || !menuRef.current) return;
    setPlacement(place(buttonRef.current, menuRef.current));
  }, [open]);

  // Focus moves in once the menu is placed (a hidden element cannot take focus).
  useEffect(() => {
    if (open && placement) {
      menuRef.current
        ?.querySelector<HTMLButtonElement>('[role="menuitem"]:not([disabled])')
        ?.focus({ preventScroll: true });
    }
  }, [open, placement]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node) && !buttonRef.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    // The menu is fixed in place: close it rather than let it drift from its button.
    const onScroll = (event: Event) => {
      const target = event.target;
      const anchorMoved = target === document || (target instanceof Node && target.contains(buttonRef.current));
      if (anchorMoved) setOpen(false);
    };
    const onResize = () => setOpen(false);
    document.addEventListener('pointerdown', onPointer);
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onResize);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onResize);
    };
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    setPlacement(null);
    if (refocus) buttonRef.current?.focus();
  };

  const onMenuKey = (event: React.KeyboardEvent) => {
    const items = [
      ...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not([disabled])') ?? []),
    ];
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      items[(index + 1) % items.length]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      items[(index - 1 + items.length) % items.length]?.focus();
    } else if (event.key === 'Home') {
      event.preventDefault();
      items[0]?.focus();
    } else if (event.key === 'End') {
      event.preventDefault();
      items.at(-1)?.focus();
    } else if (event.key === 'Tab') {
      close(true);
    }
  };

  return (
    <div className={`menu-anchor ${props.className ?? ''}`}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label={props.label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        {props.children}
      </button>
      {open &&
        createPortal(
          <div
            ref={menuRef}
            id={menuId}
            role="menu"
            aria-label={props.label}
            className="menu"
            style={placement ? { top: placement.top, left: placement.left } : { visibility: 'hidden', top: 0, left: 0 }}
            onKeyDown={onMenuKey}
          >
            {props.items.map((item) => (
              <button
                key={item.label}
                type="button"
                role="menuitem"
                className={item.danger ? 'menu-item danger' : 'menu-item'}
                disabled={item.disabled}
                onClick={() => {
                  close(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            ))}
          </div>,
          document.body,
        )}
    </div>
  );
}
