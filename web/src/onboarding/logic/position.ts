// Where the onboarding window sits (spec 1: "Position is remembered (left, top, height,
// width)"), stored in the browser under CloudConnect-OnboardingPosition as JSON. A stored
// position is kept on screen: a window dragged off a larger screen comes back into view.

export const OnboardingPositionKey = 'CloudConnect-OnboardingPosition';

export interface WindowPosition {
  left: number;
  top: number;
  height: number;
  width: number;
}

export const DefaultSize = { width: 380, height: 300 } as const;
export const MinSize = { width: 280, height: 180 } as const;
/** How much of the window must stay on screen to be dragged back. */
const Grip = 40;

/** Room kept below the window: the page footer. */
const FooterRoom = 56;

/**
 * Where the window first opens (issue 41 item 14): at the bottom left of the page's content
 * (`contentLeft`: the sidebar's right edge), above the footer. Not bottom right, where it
 * covered the newest part of the timeline graphs and the toasts (bottom right) covered its
 * buttons.
 */
export function defaultPosition(viewport: { width: number; height: number }, contentLeft = 0): WindowPosition {
  const left = Math.min(Math.max(0, contentLeft + 16), Math.max(0, viewport.width - DefaultSize.width));
  return {
    left,
    top: Math.max(0, viewport.height - DefaultSize.height - FooterRoom),
    ...DefaultSize,
  };
}

/**
 * The window as shown in a viewport of this size: wholly inside it, made smaller only when the
 * viewport is (issue 41 item 14: after the browser shrank to 1024x700 it stayed at x=1209).
 * The remembered position is kept; it shows again where it was once the viewport is larger.
 */
export function fitInViewport(p: WindowPosition, viewport: { width: number; height: number }): WindowPosition {
  const width = Math.max(Math.min(p.width, viewport.width), Math.min(MinSize.width, viewport.width));
  const height = Math.max(Math.min(p.height, viewport.height), Math.min(MinSize.height, viewport.height));
  const left = Math.min(Math.max(0, p.left), Math.max(0, viewport.width - width));
  const top = Math.min(Math.max(0, p.top), Math.max(0, viewport.height - height));
  return { left, top, height, width };
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function parsePosition(text: string | null): WindowPosition | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Partial<WindowPosition> | null;
    if (!v || !finite(v.left) || !finite(v.top) || !finite(v.height) || !finite(v.width)) return undefined;
    return { left: v.left, top: v.top, height: v.height, width: v.width };
  } catch {
    return undefined;
  }
}

export const serializePosition = (p: WindowPosition): string =>
  JSON.stringify({ left: Math.round(p.left), top: Math.round(p.top), height: Math.round(p.height), width: Math.round(p.width) });

/** The position limited to the viewport: at least the minimum size, the title bar reachable. */
export function clampPosition(p: WindowPosition, viewport: { width: number; height: number }): WindowPosition {
  const width = Math.min(Math.max(p.width, MinSize.width), Math.max(MinSize.width, viewport.width));
  const height = Math.min(Math.max(p.height, MinSize.height), Math.max(MinSize.height, viewport.height));
  const left = Math.min(Math.max(p.left, Grip - width), Math.max(0, viewport.width - Grip));
  const top = Math.min(Math.max(p.top, 0), Math.max(0, viewport.height - Grip));
  return { left, top, height, width };
}

/** The position after dragging the title bar by (dx, dy) from where the drag started. */
export const dragged = (start: WindowPosition, dx: number, dy: number, viewport: { width: number; height: number }): WindowPosition =>
  clampPosition({ ...start, left: start.left + dx, top: start.top + dy }, viewport);
