// Answer schemas of the support calls (server/contract/support.ts).
/** The console caps its Error_Log at 1,048,576 characters; allow that plus JSON escaping. */
export const TicketBodyLimit = 4 * 1024 * 1024;

const str = { type: 'string' } as const;

export const SupportTicketItemSchema = {
  type: 'object',
  required: ['Id', 'Time', 'AccountName', 'UserName', 'Name', 'EmailAddress', 'ProblemStatement', 'ErrorLogChars', 'Mail'],
  properties: {
    Id: { type: 'integer' },
    Time: str,
    AccountName: str,
    UserName: str,
    Name: str,
    EmailAddress: str,
    ProblemStatement: str,
    ErrorLogChars: { type: 'integer' },
    Mail: {
      type: ['object', 'null'],
      required: ['To', 'Problem', 'Time'],
      properties: { To: str, Problem: str, Time: str },
    },
  },
} as const;

export const SupportTicketListSchema = { type: 'array', items: SupportTicketItemSchema } as const;
