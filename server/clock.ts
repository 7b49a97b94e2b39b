/**
 * The time the server reads when it sets or checks an expiry and when it stamps a change. Tests start the server
 * with a clock they move forward, so that proving an expiry does not mean waiting for it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
