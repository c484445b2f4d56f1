import { describe, expect, it } from 'vitest';
import { cropOf } from './pictures';

describe('the avatar crop', () => {
  it('is the largest centred square at zoom 1, smaller when zoomed, and never leaves the picture', () => {
    expect(cropOf(1200, 800, 1, 0.5, 0.5)).toEqual({ x: 200, y: 0, size: 800 });
    expect(cropOf(1200, 800, 2, 0.5, 0.5)).toEqual({ x: 400, y: 200, size: 400 });
    expect(cropOf(1200, 800, 2, 0, 0)).toEqual({ x: 0, y: 0, size: 400 });
    expect(cropOf(1200, 800, 2, 1, 1)).toEqual({ x: 800, y: 400, size: 400 });
    expect(cropOf(800, 1200, 0.5, 0.5, 0.9)).toEqual({ x: 0, y: 400, size: 800 });
  });
});
