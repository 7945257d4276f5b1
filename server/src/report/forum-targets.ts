/**
 * The places `report --for` writes a post for (forum.ts renders them). Its own small module so
 * that the CLI definitions and the API schemas can name the choices without loading a renderer.
 */
export const FORUM_TARGETS = ['truenas-forum', 'proxmox-forum', 'reddit', 'github'] as const;
export type ForumTarget = (typeof FORUM_TARGETS)[number];
