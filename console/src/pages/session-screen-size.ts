import { useEffect, useState } from 'preact/hooks';

/** The least height of the screen's box on a window of a computer: a phone's screen stays readable. */
const READABLE_PX = 524;
/** On a window lower than this, the box takes what there is (at least SMALL_PX). */
const LOW_WINDOW_PX = 700;
const SMALL_PX = 320;
/** Room left under the column (the page's bottom margin). */
const MARGIN_PX = 16;

/**
 * The height for the live screen's box: from where the box starts to the window's bottom, less what
 * its column shows under it (the typing bar), so the whole device screen is on the window at once; at
 * least READABLE_PX on a window of a computer, so a phone's portrait screen is drawn at a readable
 * size (its canvas keeps the frame's proportions inside the box). Measured again when the window or
 * anything above the box changes size (a toolbar that wraps, a status that appears).
 */
export function useScreenBoxHeight(): { ref: (el: HTMLElement | null) => void; height: number | null } {
  const [el, ref] = useState<HTMLElement | null>(null);
  const [height, setHeight] = useState<number | null>(null);
  useEffect(() => {
    const column = el?.parentElement;
    if (!el || !column) return;
    const measure = () => {
      const rect = el.getBoundingClientRect();
      const below = column.getBoundingClientRect().bottom - rect.bottom;
      const available = Math.floor(window.innerHeight - (rect.top + window.scrollY) - below - MARGIN_PX);
      const least = window.innerHeight >= LOW_WINDOW_PX ? READABLE_PX : SMALL_PX;
      setHeight(Math.max(available, least));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(column);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [el]);
  return { ref, height };
}
