import { describe, expect, it } from 'vitest';
import { MinSize, clampPosition, defaultPosition, dragged, fitInViewport, parsePosition, serializePosition } from './position';

const screen = { width: 1200, height: 800 };

describe('the onboarding window position', () => {
  it('round-trips left, top, height and width, and ignores anything else stored', () => {
    const p = { left: 10.4, top: 20, height: 300, width: 400 };
    expect(parsePosition(serializePosition(p))).toEqual({ left: 10, top: 20, height: 300, width: 400 });
    expect(parsePosition(null)).toBeUndefined();
    expect(parsePosition('{"left":1,"top":2}')).toBeUndefined();
    expect(parsePosition('[1,2,3,4]')).toBeUndefined();
    expect(parsePosition('nonsense')).toBeUndefined();
  });

  it('starts at the bottom left of the content, beside the sidebar, above the footer', () => {
    const d = defaultPosition(screen, 248);
    expect(d.left).toBe(264);
    expect(d.top + d.height).toBeLessThanOrEqual(screen.height - 56);
  });

  it('is shown wholly inside a viewport that shrank (issue 41 item 14: x=1209 at 1024x700)', () => {
    const stored = { left: 1209, top: 560, height: 300, width: 380 };
    expect(fitInViewport(stored, { width: 1024, height: 700 })).toEqual({ left: 1024 - 380, top: 400, height: 300, width: 380 });
    expect(fitInViewport(stored, { width: 1920, height: 1080 })).toEqual(stored);
    expect(fitInViewport({ left: -100, top: -5, height: 900, width: 380 }, { width: 1024, height: 700 })).toEqual({ left: 0, top: 0, height: 700, width: 380 });
  });

  it('keeps the title bar on screen and the size at least the minimum', () => {
    expect(clampPosition({ left: 5000, top: 5000, height: 10, width: 10 }, screen)).toEqual({ left: 1160, top: 760, height: MinSize.height, width: MinSize.width });
    expect(clampPosition({ left: -5000, top: -50, height: 300, width: 400 }, screen)).toEqual({ left: 40 - 400, top: 0, height: 300, width: 400 });
  });

  it('moves by the drag distance', () => {
    expect(dragged({ left: 100, top: 100, height: 300, width: 400 }, 30, -20, screen)).toEqual({ left: 130, top: 80, height: 300, width: 400 });
  });
});
