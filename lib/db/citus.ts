// lib/search imports isCitus from here until it reads the engine adapter (./engine) itself.
export { isCitus } from './engine';
