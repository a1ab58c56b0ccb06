import { describe, expect, it } from 'vitest';
import { MinSize, clampPosition, defaultPosition, dragged, parsePosition, serializePosition } from './position';

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

  it('starts at the bottom right of the screen', () => {
    const d = defaultPosition(screen);
    expect(d.left + d.width).toBeLessThanOrEqual(screen.width);
    expect(d.top + d.height).toBeLessThanOrEqual(screen.height);
  });

  it('keeps the title bar on screen and the size at least the minimum', () => {
    expect(clampPosition({ left: 5000, top: 5000, height: 10, width: 10 }, screen)).toEqual({ left: 1160, top: 760, height: MinSize.height, width: MinSize.width });
    expect(clampPosition({ left: -5000, top: -50, height: 300, width: 400 }, screen)).toEqual({ left: 40 - 400, top: 0, height: 300, width: 400 });
  });

  it('moves by the drag distance', () => {
    expect(dragged({ left: 100, top: 100, height: 300, width: 400 }, 30, -20, screen)).toEqual({ left: 130, top: 80, height: 300, width: 400 });
  });
});
