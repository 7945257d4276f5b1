import type { InjectionKey } from 'vue';
import type { TokenStore } from '../api/token.ts';

export const TokenKey: InjectionKey<TokenStore> = Symbol('token');
