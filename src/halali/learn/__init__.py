"""The course (/learn): short lessons of small tasks on the real board, checked by the real rules.

``course`` holds the lessons (positions and what each task accepts), ``tasks`` plays a task's steps
with the rules engines. Words live in the page's translations, under ``learn.<lesson>.<task>``.
"""
