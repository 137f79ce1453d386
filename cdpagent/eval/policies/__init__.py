"""Example scripted policies for ``cdpagent eval --policy`` (:mod:`cdpagent.eval.policies.miniwob`)."""
