"""The corpus's Streamlit app (issue 34): a conference registration form of Streamlit's own
widgets — text, number, slider, select, multiselect, radio, checkbox, date, file upload and
a button — and the output the button writes.

On every run (Streamlit reruns the script after each widget change) the app writes its
widgets' values, and the registration the button made, as JSON to the file named by
``CORPUS_STATE``: that file is the application's state the corpus's scorers read. It is
written whole to a temporary file and renamed, so a reader never sees half of it.

    CORPUS_STATE=/tmp/state.json streamlit run bench/apps/streamlit/app.py
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

import streamlit as st

st.title("Conference registration")
st.write("Register for the conference: who you are, what you attend, and when you arrive.")

name = st.text_input("Full name")
tickets = st.number_input("Tickets", min_value=1, max_value=10, value=1, step=1)
budget = st.slider("Hotel budget per night (EUR)", min_value=0, max_value=500, value=100, step=10)
city = st.selectbox("Venue city", ["Lisbon", "Berlin", "Oslo", "Kyoto"])
workshops = st.multiselect("Workshops", ["Testing", "Databases", "Security", "Accessibility"])
meal = st.radio("Meal", ["Standard", "Vegetarian", "Vegan"])
newsletter = st.checkbox("Subscribe to the newsletter")
arrival = st.date_input("Arrival date", value=datetime.date(2027, 5, 10))
abstract = st.file_uploader("Talk abstract (text file)", type=["txt"])

if st.button("Register"):
    if not name:
        st.session_state["registration"] = None
        st.session_state["error"] = "Please enter your full name."
    else:
        st.session_state["error"] = None
        st.session_state["registration"] = {
            "name": name,
            "tickets": int(tickets),
            "city": city,
            "arrival": arrival.isoformat() if isinstance(arrival, datetime.date) else None,
        }

if st.session_state.get("error"):
    st.error(st.session_state["error"])
registration = st.session_state.get("registration")
if registration:
    st.success(
        f"Registered {registration['name']} for {registration['tickets']} ticket(s) in "
        f"{registration['city']}, arriving {registration['arrival']}."
    )

state = {
    "name": name,
    "tickets": int(tickets),
    "budget": int(budget),
    "city": city,
    "workshops": list(workshops),
    "meal": meal,
    "newsletter": bool(newsletter),
    "arrival": arrival.isoformat() if isinstance(arrival, datetime.date) else None,
    "abstract": None if abstract is None else {"name": abstract.name, "text": abstract.getvalue().decode()},
    "registration": registration,
    "error": st.session_state.get("error"),
}
target = os.environ.get("CORPUS_STATE")
if target:
    staging = Path(target + ".tmp")
    staging.write_text(json.dumps(state))
    staging.replace(target)
