export * from './rules';
export * from './verificationKey';
export * from './user';
