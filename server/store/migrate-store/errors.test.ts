import { describe, expect, it } from 'vitest';
import { MigrateError, failureText } from './errors.js';

describe('migrate-store failures', () => {
  it('read "{what} failed: {why}"', () => {
    expect(failureText(new MigrateError('copying table users', 'no space left'), undefined)).toBe('copying table users failed: no space left');
    expect(failureText(new Error('boom'), undefined)).toBe('migrate-store failed: boom');
  });

  it('never show the URL password, as written or decoded', () => {
    const url = 'postgres://hopwatch:p%40ss%3Aw0rd@db:5432/hopwatch';
    const text = failureText(new Error('password p@ss:w0rd rejected for postgres://hopwatch:p%40ss%3Aw0rd@db'), url);
    expect(text).not.toContain('p@ss:w0rd');
    expect(text).not.toContain('p%40ss%3Aw0rd');
    expect(text).toContain('***');
  });
});
