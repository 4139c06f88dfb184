"""Game-AI edges: numeric encodings of every game, and PettingZoo environments.

``aceydeucey.ai.codec`` (NumPy only) turns a seat's observation into a vector and the
seat's legal actions into positions of a fixed action table; ``aceydeucey.ai.pettingzoo``
(the optional ``ai`` extra, ``pip install 'aceydeucey[ai]'``) wraps any game as a
PettingZoo AEC environment.  Both speak only the game contract.  See ``docs/ai.md``.
"""

from aceydeucey.ai.codec import Codec, codec_for, register_codec

__all__ = ["Codec", "codec_for", "register_codec"]
