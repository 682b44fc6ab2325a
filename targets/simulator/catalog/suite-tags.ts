/**
 * Suite tags of the scenarios that create members through POST /users/{u}/members
 * (directly or through scenarios/steps/members.ts): what a variation of that operation can affect.
 */
export const MEMBER_CREATING = ['@members', '@accounts', '@ach-returns', '@data-exchange', '@identify', '@transactions', '@processor', '@versions', '@oauth'];
/** Tags of the scenarios that read members, statuses or challenges (member creators plus the widget). */
export const MEMBER_READING = [...MEMBER_CREATING, '@widgets'];
/** Tags of the scenarios that send input the service may refuse, or expect an error answer. */
export const ERROR_READING = [
  '@errors',
  '@auth',
  '@versions',
  '@ach-returns',
  '@members',
  '@institutions',
  '@paging',
  '@legacy',
  '@audience',
  '@data-exchange',
  '@processor',
  '@identify',
  '@accounts',
  '@widgets',
  '@oauth',
  '@mfa',
];
