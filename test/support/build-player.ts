/** Test preload (bunfig.toml): the player's bundles are built before any test renders or serves a page. */
import { buildPlayer } from "../../src/build-player.ts";

await buildPlayer();
