export { startFakeSlack } from './start-fake-slack.js';
export type {
  FakeResponseUrlPost,
  FakeSlack,
  FakeSlackCall,
  FakeSlackEphemeral,
  FakeSlackFailure,
  FakeSlackMessage,
  FakeSlackOptions,
  FakeSlackTeam,
} from './types.js';
