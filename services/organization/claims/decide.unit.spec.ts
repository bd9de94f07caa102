import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { nameClaimDecider } from './decide.js';

describe('name claim decider', () => {
  const spec = deciderSpec(nameClaimDecider);
  const scope = 'team-name:2' as const;
  const claimed = { type: 'NameClaimed' as const, payload: { scope, name: 'Mobile', ownerId: 3 } };
  const released = { type: 'NameReleased' as const, payload: { scope, name: 'Mobile', ownerId: 3 } };

  it('claims a free name, trimmed of surrounding blanks', () => {
    spec.given([]).when({ type: 'ClaimName', scope, name: ' Mobile ', ownerId: 3, what: 'Team' }).then([claimed]);
  });

  it('refuses a held name to anyone else, naming what holds it; its holder claiming it again changes nothing', () => {
    spec.given([claimed]).when({ type: 'ClaimName', scope, name: 'mobile', ownerId: 4, what: 'Team' }).thenRefused('NAME_TAKEN');
    spec.given([claimed]).when({ type: 'ClaimName', scope, name: 'Mobile', ownerId: 3, what: 'Team' }).then([]);
  });

  it('frees a name for its holder only; releasing a free name changes nothing', () => {
    spec.given([claimed]).when({ type: 'ReleaseName', scope, name: 'Mobile', ownerId: 3 }).then([released]);
    spec.given([claimed]).when({ type: 'ReleaseName', scope, name: 'Mobile', ownerId: 4 }).then([]);
    spec.given([]).when({ type: 'ReleaseName', scope, name: 'Mobile', ownerId: 3 }).then([]);
    spec.given([claimed, released]).when({ type: 'ReleaseName', scope, name: 'Mobile', ownerId: 3 }).then([]);
  });

  it('lets anyone claim a released name', () => {
    spec.given([claimed, released]).when({ type: 'ClaimName', scope, name: 'Mobile', ownerId: 4, what: 'Team' }).then([
      { type: 'NameClaimed', payload: { scope, name: 'Mobile', ownerId: 4 } },
    ]);
  });

  it('holds usernames platform-wide as it holds names in a company', () => {
    const username = { type: 'NameClaimed' as const, payload: { scope: 'username' as const, name: 'ada', ownerId: 7 } };
    spec.given([]).when({ type: 'ClaimName', scope: 'username', name: 'ada', ownerId: 7, what: 'Username' }).then([username]);
    spec.given([username]).when({ type: 'ClaimName', scope: 'username', name: 'ADA', ownerId: 8, what: 'Username' }).thenRefused('NAME_TAKEN');
  });
});
