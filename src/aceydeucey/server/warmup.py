"""Warming the games' engines up in a server process (and in each bot process) before
its first request, so compiled code is never loaded in the middle of one."""

from __future__ import annotations

import gc
import logging

from aceydeucey.core.registry import game_ids, load_game

log = logging.getLogger("aceydeucey.server")

__all__ = ["GC_THRESHOLDS", "warm_engines"]

#: the collector's thresholds in a server process: young collections ten times rarer than
#: with Python's default (700, 10, 10) (a crowd's p99 reply 309 -> 109 ms); the middle
#: generation every 2 young ones, so each of its passes (which stop every table at once)
#: is short, and the full ones as often as with (7000, 10, 10): every 100 young ones
#: (rarer full collections, (7000, 10, 100), gave no better p99 and a heap still growing
#: after two minutes; crowd p99 with (7000, 2, 50) 105 to 138 ms in four runs against
#: 141 to 182 for (7000, 10, 10) alternated with them: docs/scaling.md)
GC_THRESHOLDS = (7_000, 2, 50)


def warm_engines() -> None:
    """Play each game's first steps once, in a worker thread at start-up: an engine that
    loads compiled code on its first use (backgammon's move generator, about a second)
    then never does so on the event loop, in the middle of a request.

    Backgammon's compiled move generator is waited for when its cache is stale (built
    in a separate process, ``kernels.build``): the plain code plays meanwhile, many times
    slower, so ``/health`` says ``warming`` until the compiled one is loaded."""
    try:
        from aceydeucey import kernels
        from aceydeucey.backgammon import generate

        if kernels.build("backgammon", progress=False):
            generate.warm_up()
    except Exception as exc:  # the plain code plays
        log.warning("loading the move generator failed (%s)", type(exc).__name__)
    for game_id in game_ids():
        try:
            state = load_game(game_id).new_initial_state()
            for _ in range(8):
                if state.is_terminal():
                    break
                legal = list(state.legal_actions())
                if not state.is_chance_node():
                    break
                state = state.apply(legal[0])
        except Exception as exc:  # a game that cannot warm up still plays, only slower at first
            log.warning("warming up %s failed (%s)", game_id, type(exc).__name__)
    # Everything loaded so far (the engines, the compiled kernels, the libraries) lives as
    # long as the process: out of the collector's sight, a full collection no longer walks it
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
