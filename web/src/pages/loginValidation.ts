// Login validation of spec 1 section 5: with either error no login call is made.
export interface LoginErrors {
  username?: string;
  password?: string;
}

export function validateLogin(username: string, password: string): LoginErrors {
  const errors: LoginErrors = {};
  if (username.trim() === '') errors.username = 'Your username cannot be blank';
  if (password === '') errors.password = 'Password cannot be blank';
  return errors;
}

export const hasLoginErrors = (errors: LoginErrors) => !!(errors.username || errors.password);

/** "expired" in the query (any value but false) or as the /login/{expired} segment. */
export function isExpiredLogin(search: URLSearchParams, segment: string | undefined): boolean {
  const query = search.get('expired');
  return (query !== null && query.toLowerCase() !== 'false') || (segment !== undefined && segment.toLowerCase() === 'expired');
}
